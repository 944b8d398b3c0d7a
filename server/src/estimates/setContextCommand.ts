import type { Command } from 'vscode-languageserver-types';
import { english, type Translate } from '../protocol';

/**
 * The client command that asks for the model and GPU count and writes them to zeroLens.* settings.
 * The server only names it; the client registers it. Argument: { uri, missing }.
 */
export const setTrainingContextCommand = 'zeroLens.setTrainingContext';

export interface SetTrainingContextArgs {
  /** The document whose folder the settings are for. */
  uri: string;
  /** What is missing, e.g. ["model", "gpusPerNode"]: the client asks for these first. */
  missing: string[];
}

export function setTrainingContextCommandFor(uri: string, missing: string[], t: Translate = english): Command {
  const args: SetTrainingContextArgs = { uri, missing };
  return { title: t('Set model and GPUs for memory estimates…'), command: setTrainingContextCommand, arguments: [args] };
}

/** A markdown link that runs the command (hovers are rendered trusted for command links by the client). */
export function setContextCommandLink(uri: string, missing: string[], t: Translate = english): string {
  const args: SetTrainingContextArgs = { uri, missing };
  return t('[Set model and GPUs…]({0})', `command:${setTrainingContextCommand}?${encodeURIComponent(JSON.stringify([args]))}`);
}
