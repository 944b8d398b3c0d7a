import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Hosts } from './host';
import { ConfigParses } from './dsconfig/parse';
import { LaunchParses } from './launch/parses';
import { FsdpConfigFiles } from './launch/fsdp/configFile';
import { TrainingService, type DocumentParses } from './training/service';

/**
 * The analysis service of one language service instance: the parses of open documents (one per version) and
 * the training layer with everything it read from disk. Nothing of it lives in module state, so two
 * instances (the server and a test, the CLI) never share a cache.
 */
export interface Analyses {
  configParses: ConfigParses;
  launchParses: LaunchParses;
  /** FSDP config files open as documents of their own. */
  fsdpConfigFiles: FsdpConfigFiles;
  parses: DocumentParses;
  training: TrainingService;
}

/** From this length a script's analysis is tens of MB (a 1 MB script: about 45 MB). */
const hugeLaunchLength = 256 * 1024;

/**
 * `open`: the document the editor has open at a path, if any (the server knows; the CLI and tests need not).
 * `releaseMemory`: asked when a huge script's analysis was dropped for a newer version, before that is built.
 * `modelSized`: told when a model was sized (`TrainingService.modelFolders` may differ).
 */
export function createAnalyses(hosts: Hosts, open?: (path: string) => TextDocument | undefined, releaseMemory?: () => void, modelSized?: () => void): Analyses {
  const configParses = new ConfigParses(releaseMemory);
  const dropped = (length: number) => {
    if (length >= hugeLaunchLength) releaseMemory?.();
  };
  const launchParses = new LaunchParses(() => hosts.workspace.folders(), dropped);
  const parses: DocumentParses = { config: (d) => configParses.parse(d), launch: (d) => launchParses.get(d), open };
  return { configParses, launchParses, fsdpConfigFiles: new FsdpConfigFiles(), parses, training: new TrainingService(hosts, parses, modelSized) };
}
