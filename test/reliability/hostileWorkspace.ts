/**
 * A workspace a cloned repository could hand the server: named pipes where configs and scripts are expected,
 * links to /dev/zero, sparse and huge files, 5,000-deep nesting, Markdown injected through a model name, a
 * 1 MB launch script and a 4 MB config with 50 diagnostics. Shared by the reliability tests and
 * `bench/reliability.ts` (not a test file itself).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The model name a hostile script gives: a command link and a remote image, as Markdown. */
export const injectedModel = '[click me](command:zeroLens.switchStage?%5B%22x%22%5D) ![b](https://example.invalid/beacon.png)';

export const zero2Config = `{
  "bf16": { "enabled": true },
  "train_micro_batch_size_per_gpu": 1,
  "zero_optimization": {
    "stage": 2,
    "overlap_comm": true
  }
}
`;

export interface HostileWorkspace {
  root: string;
  /** A folder outside the workspace holding a model a script names (restricted mode must not read it). */
  outside: string;
  files: {
    /** A ds_config.json beside `wait.sh`, a named pipe. */
    fifoNeighbour: string;
    /** A script naming `--deepspeed pipe.json` (a pipe) and a model folder whose config.json is a pipe. */
    pipeScript: string;
    /** A script naming `--deepspeed /dev/zero`. */
    devZeroScript: string;
    /** A script naming a model folder with a 600 MB sparse config.json. */
    sparseModelScript: string;
    /** A script naming a model folder whose safetensors header says 60 MB. */
    hugeHeaderScript: string;
    /** A script whose inline --deepspeed JSON nests 5,000 deep. */
    deepScript: string;
    /** A script whose model name is Markdown with a command link and an image. */
    injectScript: string;
    /** The config that script launches (its `"stage"` hover shows the model). */
    injectConfig: string;
    /** A script naming a model folder outside the workspace. */
    outsideModelScript: string;
    /** The config that script launches. */
    outsideConfig: string;
    /** A 1 MB launch script: many commands and exported variables. */
    bigScript: string;
    /** A 4 MB config with 50 diagnostics. */
    bigConfig: string;
  };
  dispose(): void;
}

/** A JSON object nested `depth` levels deep. */
export function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A launch script of about `bytes` bytes: exported variables and commands that use them. */
export function bigScript(bytes: number): string {
  const lines = ['#!/bin/bash'];
  let size = 12;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 3 === 0
        ? `export VAR_${i}=value_${i}`
        : i % 3 === 1
          ? `echo "$VAR_${i - 1}" step ${i}`
          : `deepspeed --num_gpus 8 train.py --deepspeed ds_config_bigscript.json --model_name_or_path Qwen/Qwen3-8B --output_dir out_$VAR_${i - 2}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

/**
 * A config of about `bytes` bytes with `diagnostics` problems: misspelled keys (each with a "did you mean"
 * fix) and one large unknown section carrying the bulk.
 */
export function bigConfig(bytes: number, diagnostics: number): string {
  const misspelled = Array.from({ length: diagnostics - 1 }, (_, i) => `    "overlap_com${i}": true`);
  const head = `{\n  "bf16": { "enabled": true },\n  "zero_optimization": {\n    "stage": 2,\n${misspelled.join(',\n')}\n  },\n  "payload": [\n`;
  const tail = '\n  ]\n}\n';
  const row = '    {"name": "layer", "values": [1, 2, 3, 4, 5, 6, 7, 8], "note": "padding padding padding"}';
  const rows: string[] = [];
  let size = head.length + tail.length;
  while (size < bytes) {
    rows.push(row);
    size += row.length + 2;
  }
  return head + rows.join(',\n') + tail;
}

function fifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

function sparse(file: string, bytes: number): void {
  const fd = openSync(file, 'w');
  writeSync(fd, '{"model_type": "llama", ');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

/** A safetensors file whose header is `bytes` of JSON (one real tensor, padded with metadata). */
function hugeHeader(file: string, bytes: number): void {
  const start = '{"w":{"dtype":"BF16","shape":[4096,4096],"data_offsets":[0,33554432]},"__metadata__":{"pad":"';
  const end = '"}}';
  const header = Buffer.alloc(bytes, 0x61);
  header.write(start, 0);
  header.write(end, bytes - end.length);
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(bytes));
  const fd = openSync(file, 'w');
  writeSync(fd, prefix);
  writeSync(fd, header);
  closeSync(fd);
}

export function createHostileWorkspace(): HostileWorkspace {
  const base = mkdtempSync(path.join(tmpdir(), 'zero-lens-hostile-'));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(path.join(outside, 'secret-model'), { recursive: true });
  writeFileSync(path.join(outside, 'secret-model', 'config.json'), JSON.stringify({ model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000 }));
  const at = (name: string): string => path.join(root, name);

  mkdirSync(at('fifo'));
  writeFileSync(at('fifo/ds_config.json'), zero2Config);
  fifo(at('fifo/wait.sh'));

  fifo(at('pipe.json'));
  mkdirSync(at('fifo_model'));
  fifo(at('fifo_model/config.json'));
  writeFileSync(at('train_pipe.sh'), 'deepspeed --num_gpus 8 train.py --deepspeed pipe.json --model_name_or_path ./fifo_model\n');

  symlinkSync('/dev/zero', at('zero.sh'));
  writeFileSync(at('train_devzero.sh'), 'deepspeed --num_gpus 8 train.py --deepspeed /dev/zero --model_name_or_path Qwen/Qwen3-8B\n');

  mkdirSync(at('sparse_model'));
  sparse(at('sparse_model/config.json'), 600 * 1024 * 1024);
  writeFileSync(at('ds_config_sparse.json'), zero2Config);
  writeFileSync(at('train_sparse.sh'), 'deepspeed --num_gpus 8 train.py --deepspeed ds_config_sparse.json --model_name_or_path ./sparse_model\n');

  mkdirSync(at('header_model'));
  hugeHeader(at('header_model/model.safetensors'), 60 * 1024 * 1024);
  writeFileSync(at('ds_config_header.json'), zero2Config);
  writeFileSync(at('train_header.sh'), 'deepspeed --num_gpus 8 train.py --deepspeed ds_config_header.json --model_name_or_path ./header_model\n');

  writeFileSync(at('train_deep.sh'), `deepspeed --num_gpus 8 train.py --deepspeed '{"zero_optimization": {"stage": 2}, "x": ${nested(5000)}}' --model_name_or_path Qwen/Qwen3-8B\n`);

  writeFileSync(at('ds_config_inject.json'), zero2Config);
  writeFileSync(at('train_inject.sh'), `deepspeed --num_gpus 8 train.py --deepspeed ds_config_inject.json --model_name_or_path '${injectedModel}'\n`);

  writeFileSync(at('ds_config_outside.json'), zero2Config);
  writeFileSync(at('train_outside.sh'), `deepspeed --num_gpus 8 train.py --deepspeed ds_config_outside.json --model_name_or_path ${path.join(outside, 'secret-model')}\n`);

  writeFileSync(at('train_big.sh'), bigScript(1_000_000));
  writeFileSync(at('ds_config_big.json'), bigConfig(3_900_000, 50));

  // A link loop and a link back up the tree: the walk must end.
  symlinkSync('.', at('loop'));
  mkdirSync(at('a'));
  symlinkSync('..', at('a/up'));

  return {
    root,
    outside,
    files: {
      fifoNeighbour: at('fifo/ds_config.json'),
      pipeScript: at('train_pipe.sh'),
      devZeroScript: at('train_devzero.sh'),
      sparseModelScript: at('train_sparse.sh'),
      hugeHeaderScript: at('train_header.sh'),
      deepScript: at('train_deep.sh'),
      injectScript: at('train_inject.sh'),
      injectConfig: at('ds_config_inject.json'),
      outsideModelScript: at('train_outside.sh'),
      outsideConfig: at('ds_config_outside.json'),
      bigScript: at('train_big.sh'),
      bigConfig: at('ds_config_big.json'),
    },
    dispose: () => rmSync(base, { recursive: true, force: true }),
  };
}
