import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';
import { factsOf, type LaunchAnalysis } from './analysis';
import { launchDiagnostics } from './diagnostics/validate';
import { scriptCompletions, type PresetEstimates } from './features/completion';
import { launchHover } from './features/hover';
import { launchDefinition, launchDocumentLinks } from './features/links';
import { launchCodeActions } from './features/codeActions';
import type { FactsOfFile } from './references';
import { releaseLookup } from '../dsconfig/releaseMemo';
import { unlimited, type Budget } from '../util/budget';

/** What the launch domain gets from the layers above it: the parses, cached file facts and estimates. */
export interface LaunchFeatureInputs {
  hosts: Hosts;
  /** The analysis of an open document, once per version (the language service owns the cache). */
  parse: (document: TextDocument) => LaunchAnalysis;
  /** The same analysis for validation: a huge script's is made in slices that yield (absent, `parse`). */
  parseForValidation?: (document: TextDocument, budget: Budget) => Promise<LaunchAnalysis>;
  /** Facts of the config files commands name, through the training layer's cache. */
  factsOfFile: FactsOfFile;
  /** The hosts for a document's checks, recording what they read as its dependencies; absent, `hosts`. */
  hostsFor?: (uri: string) => Hosts;
  /** Estimates for the preset completion's details; absent, the items have none. */
  presetEstimates?: PresetEstimates;
}

/** The launch-script and launcher-YAML contributor: parse once per version, answer every feature from it. */
export function createLaunchFeatures(inputs: LaunchFeatureInputs): FeatureContributor {
  const { hosts, parse } = inputs;
  const releaseOf = releaseLookup(hosts, inputs.hostsFor);
  return {
    name: 'launch',
    validate: async (document, settings, budget = unlimited) =>
      launchDiagnostics(await (inputs.parseForValidation?.(document, budget) ?? parse(document)), inputs.hostsFor?.(document.uri) ?? hosts, budget, settings, () => releaseOf(document.uri, settings.deepspeedVersion)),
    complete: (document, position, settings) => scriptCompletions(parse(document), document.offsetAt(position), hosts, inputs.presetEstimates, settings),
    hover: (document, position, settings) => launchHover(parse(document), document.offsetAt(position), hosts.fs, inputs.factsOfFile, settings.locale),
    codeActions: async (document, _range, context) => launchCodeActions(document, context),
    documentLinks: (document) => launchDocumentLinks(hosts.fs, factsOf(parse(document))),
    definition: (document, position) => launchDefinition(hosts.fs, factsOf(parse(document)), document.offsetAt(position)),
  };
}
