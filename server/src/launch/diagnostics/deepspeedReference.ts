import * as path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FileSystemHost } from '../../host';
import type { SourceContext } from '../command/context';
import type { DeepSpeedReference } from '../facts';
import { launchDiagnostic } from './codes';
import { suggestPresets } from './didYouMean';

/** Who reads the value decides what it may be: only ms-swift knows preset names. */
export type ReferenceReader = 'ms-swift' | 'the Hugging Face Trainer' | 'LLaMA-Factory' | 'accelerate';

export async function firstExisting(fs: FileSystemHost, candidates: string[]): Promise<string | undefined> {
  for (const c of candidates) if (await fs.exists(c)) return c;
  return undefined;
}

function describeFolders(ctx: SourceContext, candidates: string[]): string {
  const folders = candidates.map((c) => path.dirname(c)).map((d) => (d === ctx.fileDir ? 'next to this file' : d));
  return [...new Set(folders)].join(', ');
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export async function checkDeepSpeedReference(
  ctx: SourceContext,
  fs: FileSystemHost,
  ref: DeepSpeedReference,
  reader: ReferenceReader,
): Promise<Diagnostic[]> {
  const { start, end } = ref.span;
  switch (ref.kind) {
    case 'preset':
      if (reader === 'ms-swift') return [];
      return [
        launchDiagnostic(
          ctx,
          'preset-not-valid-here',
          start,
          end,
          `'${ref.name}' is an ms-swift preset name; ${reader} needs the path of a DeepSpeed JSON config here. Write the JSON file (ms-swift's ${ref.name}.json is a good start) and pass its path.`,
          { preset: ref.name },
        ),
      ];
    case 'unknown': {
      if (await firstExisting(fs, ctx.candidates(ref.text))) return [];
      const suggestions = suggestPresets(ref.text);
      const hint = suggestions.length ? ` Did you mean '${suggestions[0]}'?` : '';
      return [
        launchDiagnostic(
          ctx,
          'unknown-deepspeed-preset',
          start,
          end,
          `'${ref.text}' is neither an ms-swift preset (zero0, zero1, zero2, zero2_offload, zero3, zero3_offload) nor an existing JSON file; ms-swift fails at startup.${hint}`,
          { value: ref.text, suggestions, fixes: suggestions.map((s, i) => ({ title: `Change to '${s}'`, edits: [{ range: ref.span.range, newText: s }], preferred: i === 0 })) },
        ),
      ];
    }
    case 'file': {
      if (await firstExisting(fs, ref.candidates)) return [];
      return [
        launchDiagnostic(
          ctx,
          'deepspeed-config-not-found',
          start,
          end,
          `DeepSpeed config '${ref.path}' not found (looked ${describeFolders(ctx, ref.candidates)}). ${capitalised(reader)} resolves a relative path against the working directory.`,
          { path: ref.path, candidates: ref.candidates },
        ),
      ];
    }
    case 'inline':
      if (ref.json !== undefined && typeof ref.json === 'object' && ref.json !== null) return [];
      return [launchDiagnostic(ctx, 'invalid-inline-deepspeed-json', start, end, `The inline DeepSpeed config is not a JSON object; ${reader} cannot parse it.`)];
    default:
      return [];
  }
}
