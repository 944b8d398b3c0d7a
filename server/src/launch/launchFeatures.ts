import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';
import { VersionedCache } from '../util/documentCache';
import { analyzeDocument, factsOf, type LaunchAnalysis } from './analysis';
import { launchDiagnostics } from './diagnostics/validate';
import { LaunchEstimator } from './estimates';
import { scriptCompletions } from './features/completion';
import { launchHover } from './features/hover';
import { launchInlayHints } from './features/inlayHints';
import { launchDefinition, launchDocumentLinks } from './features/links';
import { launchCodeActions } from './features/codeActions';
import { memoryDiagnostics } from './features/memoryActions';

/** The launch domain's contributor plus a cache reset for file changes. */
export interface LaunchFeatures extends FeatureContributor {
  /** Model folders changed on disk: forget the sizes and estimates made from them. */
  invalidate(): void;
}

/** The launch-script and launcher-YAML contributor: parse once per version, answer every feature from it. */
export function createLaunchFeatures(hosts: Hosts): LaunchFeatures {
  const cache = new VersionedCache<LaunchAnalysis>((document) => analyzeDocument(document, hosts.workspace.folders()));
  const estimator = new LaunchEstimator(hosts);
  const analysisOf = (document: TextDocument) => cache.get(document);

  return {
    invalidate: () => estimator.invalidate(),
    async validate(document, settings) {
      const analysis = analysisOf(document);
      const diagnostics = await launchDiagnostics(analysis, hosts);
      diagnostics.push(...(await memoryDiagnostics(analysis.ctx, factsOf(analysis), estimator, settings)));
      return diagnostics;
    },
    complete: (document, position, settings) => scriptCompletions(analysisOf(document), document.offsetAt(position), hosts, estimator, settings),
    hover: (document, position, settings) => launchHover(analysisOf(document), document.offsetAt(position), hosts.fs, estimator, settings),
    codeActions: (document, range, context, settings) => launchCodeActions(document, factsOf(analysisOf(document)), range, context, estimator, settings),
    inlayHints: (document, _range, settings) => launchInlayHints(factsOf(analysisOf(document)), estimator, settings),
    documentLinks: (document) => launchDocumentLinks(hosts.fs, factsOf(analysisOf(document))),
    definition: (document, position) => launchDefinition(hosts.fs, factsOf(analysisOf(document)), document.offsetAt(position)),
  };
}
