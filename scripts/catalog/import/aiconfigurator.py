"""Extracts the Hugging Face config.json copies in NVIDIA AIConfigurator into
scripts/catalog/inputs/configs/aiconfigurator.json.

    python3 scripts/catalog/import/aiconfigurator.py <aiconfigurator git dir> [rev]

aic-core/src/aiconfigurator_core/model_configs/ holds, per supported model, its config.json as published on
the Hub, named `<org>--<name>_config.json` (the `_hf_quant_config.json` files beside some are quantisation
settings, not shapes). The file name gives the Hugging Face id. Kept: every config of a repo that is not a
quantised copy (FP8, NVFP4, ... in the name; a base repo whose own weights are FP8, like DeepSeek-V3, is
kept: its shapes are the model's). Only the numbers, flags and names of the config are written, less the
fields that name code or quantisation (auto_map, quantization_config); an infinite number (a rope
range) is written as a string, JSON having none. The catalog build reads every record
through config.json reading and leaves out the families it has no rule for.

Two more kinds of record, each listed by hand below:
- QUANTISED_COPIES: the config.json of a quantised copy stands for the original model when the folder holds no
  unquantised copy of it. Quantisation changes the weights' dtypes, not their shapes, and the copy's config
  keeps every shape field (the quantisation_config is dropped as for every record); the catalog's count test
  checks such a record against the original's published totals where there are any.
- BRANCH_CONFIGS: configs committed on a branch of the repository that the default branch does not hold (yet),
  read at that commit.
"""
import json
import math
import os
import re
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'configs', 'aiconfigurator.json')
DIR = 'aic-core/src/aiconfigurator_core/model_configs'
QUANTISED = re.compile(r'(AWQ|GPTQ|FP8|NVFP4|MXFP|INT4|INT8|W4A16|W8A8|bnb|GGUF|-4bit|-8bit)', re.I)
# quantised copy's file -> the original model's Hugging Face id
QUANTISED_COPIES = {
    'nvidia--Qwen3.6-27B-NVFP4_config.json': 'Qwen/Qwen3.6-27B',
    'nvidia--DeepSeek-V3.1-NVFP4_config.json': 'deepseek-ai/DeepSeek-V3.1',
}
# (commit, file) of configs on a branch (yimingl/aic-1762-qwen38-max-support)
BRANCH_CONFIGS = [
    ('4e097080cc19566e5606700e02bfdebd9e6c24bd', 'Qwen--Qwen3.8-2.4T-A95B_config.json'),
]
DROPPED = {'auto_map', 'quantization_config', 'compression_config', '_name_or_path', 'transformers_version'}


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def facts(value):
    """The config without the fields that name code or quantisation, nested sections included."""
    if isinstance(value, dict):
        return {k: facts(v) for k, v in value.items() if k not in DROPPED and not k.startswith('_')}
    if isinstance(value, list):
        return [facts(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no Infinity
    return value


def main():
    commit = git('rev-parse', REV).strip()
    records = []
    for path in git('ls-tree', '--name-only', f'{commit}:{DIR}').split('\n'):
        if not path.endswith('_config.json') or path.endswith('_hf_quant_config.json'):
            continue
        repo_id = path[: -len('_config.json')].replace('--', '/', 1)
        if QUANTISED.search(repo_id):
            continue
        config = json.loads(git('show', f'{commit}:{DIR}/{path}'))
        records.append({'id': repo_id, 'config': facts(config), 'where': f'{DIR}/{path}'})
    for path, repo_id in QUANTISED_COPIES.items():
        config = json.loads(git('show', f'{commit}:{DIR}/{path}'))
        records.append({'id': repo_id, 'config': facts(config), 'where': f'{DIR}/{path} (a quantised copy; its shapes are the original\'s)'})
    for branch_commit, path in BRANCH_CONFIGS:
        repo_id = path[: -len('_config.json')].replace('--', '/', 1)
        config = json.loads(git('show', f'{branch_commit}:{DIR}/{path}'))
        records.append({'id': repo_id, 'config': facts(config), 'where': f'{DIR}/{path} at {branch_commit} (a branch)'})
    if len({r['id'].lower() for r in records}) != len(records):
        raise SystemExit('an id is stated twice')
    records.sort(key=lambda r: r['id'].lower())
    source = github_source('NVIDIA AIConfigurator model configs (Hugging Face config.json copies)', 'ai-dynamo/aiconfigurator', DIR, commit,
                           "Apache-2.0 (the repository); the values are the models' own config.json facts", kind='tree')
    write_input(OUT, source, 'models', records)


main()
