/**
 * Names of one model's releases: `Qwen2.5-7B`, `Qwen2.5-7B-Instruct`, `gemma-2-9b-it`, `Llama-2-7b-chat-hf`,
 * `gpt-oss-20b-BF16` (a copy in another unquantised dtype) share weights' shapes. The key drops the words that name a release rather than a model, so such ids can
 * be offered as aliases of one catalog entry when their shapes agree.
 */
const releaseWords = new Set(['instruct', 'chat', 'it', 'base', 'hf', 'sft', 'dpo', 'pt', 'rlhf', 'ms', 'bf16', 'fp16', 'fp32']);
/** Leading words repos dropped when renamed (`Meta-Llama-3.1-8B` became `Llama-3.1-8B`). */
const renamedPrefixes = new Set(['meta']);

export function variantKey(id: string): string {
  const slash = id.lastIndexOf('/');
  const org = slash >= 0 ? id.slice(0, slash).toLowerCase() : '';
  return `${org}/${nameKey(id)}`;
}

/** The release-free name without the org: re-uploads (`unsloth/Qwen2.5-7B`) share it with the original. */
export function nameKey(id: string): string {
  return id
    .slice(id.lastIndexOf('/') + 1)
    .toLowerCase()
    .split(/[-_]/)
    .filter((w, i) => w && !releaseWords.has(w) && !(i === 0 && renamedPrefixes.has(w)))
    .join('-');
}

/** Whether `id` names no release word at all (the plain base name is the preferred canonical id). */
export function isPlainName(id: string): boolean {
  const name = id.slice(id.lastIndexOf('/') + 1).toLowerCase();
  return name.split(/[-_]/).every((w) => !releaseWords.has(w));
}

export const lower = (id: string) => id.trim().toLowerCase();
