import type { Command } from 'vscode-languageserver-types';

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

export function setTrainingContextCommandFor(uri: string, missing: string[], title = 'Set model and GPUs for memory estimates…'): Command {
  const args: SetTrainingContextArgs = { uri, missing };
  return { title, command: setTrainingContextCommand, arguments: [args] };
}

/** A markdown link that runs the command (hovers are rendered trusted for command links by the client). */
export function setContextCommandLink(uri: string, missing: string[]): string {
  const args: SetTrainingContextArgs = { uri, missing };
  return `[Set model and GPUs…](command:${setTrainingContextCommand}?${encodeURIComponent(JSON.stringify([args]))})`;
}
