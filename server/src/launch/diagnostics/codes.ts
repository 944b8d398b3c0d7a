import type { Diagnostic, TextEdit } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';

const swiftDocs = 'https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html';
const bashDocs = 'https://www.gnu.org/software/bash/manual/bash.html#Escape-Character';
const bashQuotingDocs = 'https://www.gnu.org/software/bash/manual/bash.html#Quoting';
const bashHeredocDocs = 'https://www.gnu.org/software/bash/manual/bash.html#Here-Documents';
const launcherDocs = 'https://www.deepspeed.ai/getting-started/#resource-configuration-multi-node';
const torchrunDocs = 'https://pytorch.org/docs/stable/elastic/run.html';
const accelerateDocs = 'https://huggingface.co/docs/accelerate/usage_guides/deepspeed';
const hfDocs = 'https://huggingface.co/docs/transformers/deepspeed';
const llamaFactoryDocs = 'https://llamafactory.readthedocs.io/en/latest/advanced/distributed.html';
const yamlDocs = 'https://yaml.org/spec/1.2.2/';
const carriageReturnDocs = 'https://www.shellcheck.net/wiki/SC1017';

/** Every launch diagnostic: stable code → severity and docs link. */
export const launchCodes = {
  'crlf-line-endings': { severity: DiagnosticSeverity.Warning, docs: carriageReturnDocs },
  'broken-continuation': { severity: DiagnosticSeverity.Error, docs: bashDocs },
  'trailing-space-after-backslash': { severity: DiagnosticSeverity.Error, docs: bashDocs },
  'unterminated-quote': { severity: DiagnosticSeverity.Error, docs: bashQuotingDocs },
  'unterminated-heredoc': { severity: DiagnosticSeverity.Warning, docs: bashHeredocDocs },
  'unknown-deepspeed-preset': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'deepspeed-config-not-found': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'invalid-inline-deepspeed-json': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'inline-deepspeed-json-repaired': { severity: DiagnosticSeverity.Warning, docs: swiftDocs },
  'deepspeed-unsupported-subcommand': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'zero-optimization-required': { severity: DiagnosticSeverity.Error, docs: accelerateDocs },
  'teacher-deepspeed-unused': { severity: DiagnosticSeverity.Warning, docs: swiftDocs },
  'teacher-deepspeed-without-stage': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'teacher-deepspeed-not-zero3': { severity: DiagnosticSeverity.Information, docs: swiftDocs },
  'deepspeed-with-fsdp': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'cuda-devices-without-nproc': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'nproc-visible-devices-mismatch': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'swift-script-single-process': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'swift-script-config-file': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'env-after-command': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'train-type-renamed': { severity: DiagnosticSeverity.Warning, docs: swiftDocs },
  'invalid-torch-dtype': { severity: DiagnosticSeverity.Error, docs: swiftDocs },
  'quant-bits-without-method': { severity: DiagnosticSeverity.Warning, docs: swiftDocs },
  'estimate-exceeds-gpu-memory': { severity: DiagnosticSeverity.Warning, docs: 'https://www.deepspeed.ai/tutorials/zero/' },
  'preset-not-valid-here': { severity: DiagnosticSeverity.Error, docs: hfDocs },
  'hf-script-single-process': { severity: DiagnosticSeverity.Warning, docs: hfDocs },
  'launcher-num-with-include': { severity: DiagnosticSeverity.Error, docs: launcherDocs },
  'launcher-include-with-exclude': { severity: DiagnosticSeverity.Error, docs: launcherDocs },
  'launcher-multinode-without-hostfile': { severity: DiagnosticSeverity.Warning, docs: launcherDocs },
  'launcher-invalid-host-spec': { severity: DiagnosticSeverity.Error, docs: launcherDocs },
  'cuda-visible-devices-ignored': { severity: DiagnosticSeverity.Warning, docs: launcherDocs },
  'torchrun-invalid-value': { severity: DiagnosticSeverity.Error, docs: torchrunDocs },
  'nproc-exceeds-visible-devices': { severity: DiagnosticSeverity.Warning, docs: torchrunDocs },
  'accelerate-invalid-value': { severity: DiagnosticSeverity.Error, docs: accelerateDocs },
  'accelerate-config-file-excludes': { severity: DiagnosticSeverity.Error, docs: accelerateDocs },
  'accelerate-flag-fills-auto': { severity: DiagnosticSeverity.Information, docs: accelerateDocs },
  'llamafactory-invalid-value': { severity: DiagnosticSeverity.Error, docs: llamaFactoryDocs },
  'yaml-syntax-error': { severity: DiagnosticSeverity.Warning, docs: yamlDocs },
} as const;

export type LaunchCode = keyof typeof launchCodes;

/** A quick fix carried in the diagnostic's data, so code actions need no state. */
export interface LaunchFix {
  title: string;
  edits: TextEdit[];
  preferred?: boolean;
}

export interface LaunchDiagnosticData {
  fixes?: LaunchFix[];
  [key: string]: unknown;
}

export function launchDiagnostic(
  ctx: SourceContext,
  code: LaunchCode,
  start: number,
  end: number,
  message: string,
  data: LaunchDiagnosticData = {},
): Diagnostic {
  const meta = launchCodes[code];
  return {
    range: ctx.span(start, end).range,
    severity: meta.severity,
    code,
    codeDescription: { href: meta.docs },
    source: 'zero-lens',
    message,
    data,
  };
}
