/**
 * The pages diagnostics link to (`codeDescription.href`), one constant per page or section, so codes that
 * share a page share its spelling. Links are public surface: change one only when the page moved.
 */
const dsConfigJson = 'https://www.deepspeed.ai/docs/config-json/';

/** Sections of DeepSpeed's config-json page and the tutorials the ds_config checks cite. */
export const deepspeedDocs = {
  root: dsConfigJson,
  batch: `${dsConfigJson}#batch-size-related-parameters`,
  optimizer: `${dsConfigJson}#optimizer-parameters`,
  scheduler: `${dsConfigJson}#scheduler-parameters`,
  communication: `${dsConfigJson}#communication-options`,
  fp16: `${dsConfigJson}#fp16-training-options`,
  bf16: `${dsConfigJson}#bfloat16-training-options`,
  amp: `${dsConfigJson}#automatic-mixed-precision-amp-training-options`,
  zero: `${dsConfigJson}#zero-optimizations-for-fp16-training`,
  offloadParam: `${dsConfigJson}#parameter-offloading`,
  offloadOptimizer: `${dsConfigJson}#optimizer-offloading`,
  logging: `${dsConfigJson}#logging`,
  activationCheckpointing: `${dsConfigJson}#activation-checkpointing`,
  elasticity: `${dsConfigJson}#elastic-training-config-v01-and-v02`,
  checkpoint: `${dsConfigJson}#checkpoint-options`,
  curriculum: `${dsConfigJson}#curriculum-learning`,
  dataTypes: `${dsConfigJson}#data-type-options`,
  tensorParallel: `${dsConfigJson}#tensor-parallel-autotp`,
  autotuning: `${dsConfigJson}#autotuning`,
  pipeline: 'https://www.deepspeed.ai/tutorials/pipeline/',
  oneBit: 'https://www.deepspeed.ai/tutorials/onebit-adam/',
  autotp: 'https://www.deepspeed.ai/tutorials/automatic-tensor-parallelism/',
  zenflow: 'https://www.deepspeed.ai/tutorials/zenflow/',
  zeroTutorial: 'https://www.deepspeed.ai/tutorials/zero/',
  launcher: 'https://www.deepspeed.ai/getting-started/#resource-configuration-multi-node',
} as const;

/**
 * Hugging Face's pages on DeepSpeed configs (the Trainer's "auto" values, json.load). The anchors are the page's
 * headings in huggingface/transformers@83b507b7 docs/source/en/deepspeed.md: "## DeepSpeed configuration file"
 * (L111) and "### DeepSpeed and Trainer parameters" (L150), checked by test/unit/docs-links.test.ts.
 */
export const huggingFaceDocs = {
  auto: 'https://huggingface.co/docs/transformers/main/en/deepspeed#deepspeed-and-trainer-parameters',
  configFile: 'https://huggingface.co/docs/transformers/main/en/deepspeed#deepspeed-configuration-file',
  trainer: 'https://huggingface.co/docs/transformers/deepspeed',
  accelerate: 'https://huggingface.co/docs/accelerate/usage_guides/deepspeed',
} as const;

/** PyTorch FSDP as accelerate and the Hugging Face Trainer configure it. */
export const fsdpDocs = {
  accelerate: 'https://huggingface.co/docs/accelerate/usage_guides/fsdp',
  versions: 'https://huggingface.co/docs/accelerate/concept_guides/fsdp1_vs_fsdp2',
  trainer: 'https://huggingface.co/docs/transformers/fsdp',
  peft: 'https://huggingface.co/docs/peft/accelerate/fsdp',
} as const;

/** Tensor, pipeline and expert parallelism: Megatron-SWIFT's parameters. */
export const parallelDocs = {
  megatronSwift: 'https://swift.readthedocs.io/en/latest/Megatron-SWIFT/Command-line-parameters.html',
} as const;

/** Launchers, shells and file formats the launch checks cite. */
export const launchDocs = {
  swift: 'https://swift.readthedocs.io/en/latest/Instruction/Command-line-parameters.html',
  torchrun: 'https://pytorch.org/docs/stable/elastic/run.html',
  llamaFactory: 'https://llamafactory.readthedocs.io/en/latest/advanced/distributed.html',
  bashEscape: 'https://www.gnu.org/software/bash/manual/bash.html#Escape-Character',
  bashQuoting: 'https://www.gnu.org/software/bash/manual/bash.html#Quoting',
  bashHeredoc: 'https://www.gnu.org/software/bash/manual/bash.html#Here-Documents',
  carriageReturn: 'https://www.shellcheck.net/wiki/SC1017',
  yaml: 'https://yaml.org/spec/1.2.2/',
} as const;

/** Python's own documentation, for what its runtime does to a file. */
export const pythonDocs = {
  unicodeDecodeError: 'https://docs.python.org/3/library/exceptions.html#UnicodeDecodeError',
} as const;

/** What a file is to the operating system (regular file, named pipe, device): ZeRO Lens reads regular files only. */
export const fileDocs = {
  fileTypes: 'https://man7.org/linux/man-pages/man7/inode.7.html',
} as const;
