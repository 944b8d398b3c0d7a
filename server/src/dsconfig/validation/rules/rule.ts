import type { Diagnostic } from 'vscode-languageserver-types';
import type { ConfigView } from '../configView';

/** A cross-key rule: a small pure function from the parsed config to its diagnostics. */
export type Rule = (config: ConfigView) => Diagnostic[];
