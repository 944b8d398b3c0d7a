import { URI } from 'vscode-uri';
import type { DocumentLink, Location } from 'vscode-languageserver-types';
import type { FileSystemHost } from '../../host';
import type { LaunchFacts, SourceSpan } from '../facts';
import { firstExisting } from '../diagnostics/deepspeedReference';

/** Files a launch names (DeepSpeed JSON, the teacher's too, accelerate or LLaMA-Factory YAML) that exist, with where they are named. */
export async function referencedFiles(fs: FileSystemHost, all: LaunchFacts[]): Promise<{ span: SourceSpan; file: string }[]> {
  const out: { span: SourceSpan; file: string }[] = [];
  for (const facts of all) {
    const refs: { span: SourceSpan; candidates: string[] }[] = [];
    for (const ds of [facts.deepspeed, facts.teacherDeepspeed]) if (ds?.kind === 'file') refs.push({ span: ds.span, candidates: ds.candidates });
    if (facts.configFile) refs.push({ span: facts.configFile.span, candidates: facts.configFile.candidates });
    for (const ref of refs) {
      const file = await firstExisting(fs, ref.candidates);
      if (file) out.push({ span: ref.span, file });
    }
  }
  return out;
}

export async function launchDocumentLinks(fs: FileSystemHost, all: LaunchFacts[]): Promise<DocumentLink[]> {
  return (await referencedFiles(fs, all)).map(({ span, file }) => ({ range: span.range, target: URI.file(file).toString(), tooltip: file }));
}

export async function launchDefinition(fs: FileSystemHost, all: LaunchFacts[], offset: number): Promise<Location[]> {
  const zero = { line: 0, character: 0 };
  return (await referencedFiles(fs, all))
    .filter(({ span }) => offset >= span.start && offset <= span.end)
    .map(({ file }) => ({ uri: URI.file(file).toString(), range: { start: zero, end: zero } }));
}
