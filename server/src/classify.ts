import type { TextDocument } from 'vscode-languageserver-textdocument';
import picomatch from 'picomatch';
import type { ZeroLensSettings } from './settings';
import type { DocumentKind } from './feature';
import { baseName, isAbsolutePath, pathOf } from './util/paths';

/** File names that are DeepSpeed configs by convention (matched against the base name). */
export const configFileNamePatterns = ['ds_config*.json', '*deepspeed*.json', 'ds_z*_config.json', 'zero*.json'];

const nameMatchers = configFileNamePatterns.map((p) => picomatch(p, { nocase: true }));
const globCache = new Map<string, (path: string) => boolean>();

/**
 * Top-level keys that only a DeepSpeed config has; one of them is enough to claim a JSON file.
 * Keys that training-argument files share with DeepSpeed (gradient_accumulation_steps, bf16, …) are not
 * enough on their own: ms-swift and HF argument files have them too.
 */
const deepSpeedTopLevelKeys = [
  'zero_optimization',
  'train_micro_batch_size_per_gpu',
  'train_batch_size',
  'zero_allow_untested_optimizer',
  'zero_force_ds_cpu_optimizer',
  'steps_per_print',
  'wall_clock_breakdown',
];
// Only the start of a large file is looked at, so classification stays cheap on every request.
const contentProbeLength = 64 * 1024;
const contentPattern = new RegExp(`"(${deepSpeedTopLevelKeys.join('|')})"\\s*:`);
/** A file that names a DeepSpeed config (`"deepspeed": "zero2"`) is an argument file, not a config. */
const argumentFilePattern = /"(deepspeed|model|model_name_or_path|dataset|output_dir)"\s*:/;

/**
 * An FSDP config file by name (a Trainer `--fsdp_config` file, an ms-swift `--fsdp` file: fsdp_config.json,
 * fsdp2.json), or by a key only FSDP configs have. DeepSpeed's own `activation_checkpointing` is not one of them.
 */
const fsdpFileName = picomatch('*fsdp*.json', { nocase: true });
const fsdpKeys = ['transformer_layer_cls_to_wrap', 'backward_prefetch', 'forward_prefetch', 'min_num_params', 'limit_all_gathers', 'use_orig_params', 'sync_module_states', 'cpu_ram_efficient_loading', 'reshard_after_forward'];
const fsdpContent = new RegExp(`"(fsdp_config"\\s*:\\s*\\{|fsdp_version"\\s*:|(fsdp_)?(${fsdpKeys.join('|')})"\\s*:)`);

/**
 * Shell scripts by the editor's language id: VS Code's `shellscript`; Neovim sends its filetype (`sh`, `bash`,
 * `zsh`, set by a modeline or a shebang on a file of any name), Helix `bash`.
 */
const shellLanguages = new Set(['shellscript', 'sh', 'bash', 'zsh', 'ksh']);

/** Shell scripts by name: bash and zsh scripts, and Slurm/PBS batch scripts (sbatch runs them with bash). */
export const shellExtensions = /\.(sh|bash|zsh|slurm|sbatch|pbs)$/i;
const yamlExtensions = /\.ya?ml$/i;
const jsonExtensions = /\.jsonc?$/i;
/** A launcher YAML of ours: it names a DeepSpeed config, or is an accelerate config for DeepSpeed or FSDP. */
const yamlDeepSpeedPattern = /^(\s*deepspeed\s*:|\s*distributed_type\s*:\s*['"]?(DEEPSPEED|FSDP)\b|\s*deepspeed_config_file\s*:|\s*fsdp_config\s*:)/im;
/** `#!/bin/bash`, `#!/usr/bin/env bash`, `#SBATCH`, `#PBS`: a shell script whatever its name. */
const shellContent = /^(#!\s*\S*(\/|\s)(ba|z|k|da)?sh\b|#!\s*\/bin\/sh\b|#SBATCH\b|#PBS\b)/;
/**
 * A JSON object that names a DeepSpeed config (`"deepspeed": "zero2"`): an ms-swift or LLaMA-Factory argument file;
 * or an accelerate config written as JSON (`"distributed_type": "FSDP"`, which accelerate reads too).
 */
const jsonArgumentsWithDeepSpeed = /"deepspeed"\s*:|"distributed_type"\s*:\s*"(DEEPSPEED|FSDP)"/;

function matchesConfiguredGlob(path: string, globs: string[]): boolean {
  for (const glob of globs) {
    let matcher = globCache.get(glob);
    if (!matcher) {
      // A bare pattern like "my_ds.json" matches in any folder, as files.associations does. A relative one with a
      // folder ("configs/*.json") would never match the absolute path it is tested against, so it matches that
      // folder wherever it is; an absolute one ("/data/cfg/*.json", "C:/cfg/*.json") or one from "**" stays as written.
      const anchored = isAbsolutePath(glob) || glob.startsWith('**');
      const pattern = anchored ? glob : `**/${glob.replace(/^(\.\/)+/, '')}`;
      matcher = picomatch(pattern, { dot: true, nocase: true });
      globCache.set(glob, matcher);
    }
    if (matcher(path.replace(/\\/g, '/'))) return true;
  }
  return false;
}

export function isConfigFileName(path: string, settings: ZeroLensSettings): boolean {
  const name = baseName(path);
  return nameMatchers.some((m) => m(name)) || matchesConfiguredGlob(path, settings.configFiles);
}

/**
 * Decides which domain answers for a document: by language, then file name, then content. The CLI classifies
 * the files it is given the same way, so a file that is none of these (a training-arguments JSON, a model
 * config) is skipped in both rather than checked as a DeepSpeed config.
 */
export function classifyDocument(document: TextDocument, settings: ZeroLensSettings): DocumentKind | null {
  const language = document.languageId;
  // Asked on every request: the editor's language settles most documents before the URI is parsed.
  if (language === 'ds-config') return 'ds-config';
  const path = pathOf(document.uri);
  if (shellLanguages.has(language) || shellExtensions.test(path)) return 'launch-script';
  if (language === 'yaml' || yamlExtensions.test(path)) {
    return yamlDeepSpeedPattern.test(document.getText().slice(0, contentProbeLength)) ? 'launch-yaml' : null;
  }
  const json = language === 'json' || language === 'jsonc' || jsonExtensions.test(path);
  if (json && isConfigFileName(path, settings)) return 'ds-config';
  // Other names (and `.conf`, `.txt`, no extension): what the text is.
  const head = document.getText().slice(0, contentProbeLength);
  if (!json && shellContent.test(head)) return 'launch-script';
  if (looksLikeDeepSpeedConfig(head)) return 'ds-config';
  if (head.trimStart().startsWith('{') && jsonArgumentsWithDeepSpeed.test(head)) return 'launch-yaml';
  if (json && looksLikeFsdpConfig(head, path)) return 'fsdp-config';
  if (!json && !head.trimStart().startsWith('{') && yamlDeepSpeedPattern.test(head)) return 'launch-yaml';
  return null;
}

/** How a launch document is read: YAML (JSON argument files are YAML too) or shell. */
export function launchFormat(document: TextDocument): 'yaml' | 'shell' {
  const language = document.languageId;
  if (shellLanguages.has(language)) return 'shell';
  if (language === 'yaml' || language === 'json' || language === 'jsonc') return 'yaml';
  const path = pathOf(document.uri);
  if (shellExtensions.test(path)) return 'shell';
  if (yamlExtensions.test(path) || jsonExtensions.test(path)) return 'yaml';
  const head = document.getText().slice(0, contentProbeLength);
  return !shellContent.test(head) && (head.trimStart().startsWith('{') || yamlDeepSpeedPattern.test(head)) ? 'yaml' : 'shell';
}

/** A JSON object (or an empty file) named as an FSDP config, or one with a key only FSDP configs have; not an argument file. */
function looksLikeFsdpConfig(head: string, path: string): boolean {
  const start = head.trimStart();
  if (argumentFilePattern.test(head)) return false;
  if (fsdpFileName(baseName(path))) return start === '' || start.startsWith('{');
  return start.startsWith('{') && fsdpContent.test(head);
}

/** A JSON object with a key only DeepSpeed configs have, and no key of an argument file. */
export function looksLikeDeepSpeedConfig(head: string): boolean {
  return head.trimStart().startsWith('{') && contentPattern.test(head) && !argumentFilePattern.test(head);
}
