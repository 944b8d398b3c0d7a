/**
 * Where an error comes from upstream: the pinned commits the checks were read from, and the GitHub page of
 * the line that raises. A citation is `owner/repo@commit:path#Lline` (a range `#La-b`).
 */

/** DeepSpeed at the commit the schema reflects. */
export const DS = 'deepspeedai/DeepSpeed@edaa7221267243c7be7fb49c5d5f5c4fb97b4641';
export const ACCELERATE = 'huggingface/accelerate@16cb6eb8';
export const LLAMA_FACTORY = 'hiyouga/LLaMA-Factory@ff6d4d12';
export const SWIFT = 'modelscope/ms-swift@3602360a562313afbf2ef6065fdf61f271a2c5b9';
export const TRANSFORMERS = 'huggingface/transformers@3a80c166389f65756701d6afe22bc6ec954603da';
/** The published v4.57.6 package (the last 4.x; ms-swift allows <5.17), where the FSDP checks were read: its tag pins the lines. */
export const TRANSFORMERS_4_57 = 'huggingface/transformers@v4.57.6';
/** Megatron-LM, which ms-swift's `megatron` commands run. */
export const MEGATRON = 'NVIDIA/Megatron-LM@d98e8a64ddf34856e74b24714e3bedb2f5a39553';
/** GNU bash 5.3 (patch 9), through its GitHub mirror. */
export const BASH = 'bminor/bash@637f5c8696a6adc9b4519f1cd74aa78492266b7f';

/** A citation's parts, or undefined when it is not one. */
const citation = /^([\w.-]+\/[\w.-]+)@([0-9a-f]{8,40}|v\d+\.\d+\.\d+):([\w./-]+)#L(\d+)(?:-(\d+))?$/;

/** Whether a text is a well-formed citation (a range runs forward). */
export function isCitation(raises: string): boolean {
  const m = citation.exec(raises);
  return !!m && (m[5] === undefined || Number(m[5]) > Number(m[4]));
}

/** `owner/repo@commit:path#L12` → the GitHub page of that line. */
export function upstreamLink(raises: string): string {
  const m = citation.exec(raises);
  if (!m) return raises;
  return `https://github.com/${m[1]}/blob/${m[2]}/${m[3]}#L${m[4]}${m[5] ? `-L${m[5]}` : ''}`;
}
