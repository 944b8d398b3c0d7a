"""Extracts the model shapes in Leliuga's Co:Here inference configurations into
scripts/catalog/inputs/configs/cohere-configurations.json.

    python3 scripts/catalog/import/cohere_configurations.py <leliuga/cohere-configurations git dir> [rev]

models/<name>/manifest.yaml describes one model, with `parent_id` (the Hugging Face repo it was converted from),
`architecture` and a `config` block: vocab_size, embedding_size (the hidden size), attention_head_size (the
head count), key_value_head_size (the key/value head count), intermediate_size and hidden_layer_size (the
layer count). Those become config.json fields of the parent repo. The manifests do not say whether the
embeddings are tied, nor a head width other than hidden size / heads, nor anything of a mixture of experts, so:
- only dense `llama` and `mistral` manifests are read (families whose blocks those fields describe fully), and
- every record leaves tying to be settled (`settle`): the catalog build takes it only where a published total
  of the repo fits exactly one choice to within 0.01%, which also checks every other field; the rest are left
  out with that reason.
Kept: repos the catalog can use, that is ids of the registries and ids with a published total in inputs/counts.
Only the numbers and ids are written; the manifests are read as YAML data (nothing is executed).
"""
import json
import os
import subprocess
import sys

import yaml

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
INPUTS = os.path.join(os.path.dirname(__file__), '..', 'inputs')
OUT = os.path.join(INPUTS, 'configs', 'cohere-configurations.json')
FAMILIES = {'llama', 'mistral'}
FIELDS = {
    'vocab_size': 'vocab_size',
    'embedding_size': 'hidden_size',
    'attention_head_size': 'num_attention_heads',
    'key_value_head_size': 'num_key_value_heads',
    'intermediate_size': 'intermediate_size',
    'hidden_layer_size': 'num_hidden_layers',
}


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def wanted_ids():
    """Registry ids and ids with a published total, lower-case."""
    ids = set()
    for name in sorted(os.listdir(os.path.join(INPUTS, 'registries'))):
        for fam in json.load(open(os.path.join(INPUTS, 'registries', name)))['families']:
            for m in fam['models']:
                ids.update(m[k].lower() for k in ('hf', 'ms') if m.get(k))
    for name in sorted(os.listdir(os.path.join(INPUTS, 'counts'))):
        ids.update(c['id'].lower() for c in json.load(open(os.path.join(INPUTS, 'counts', name)))['counts'])
    return ids


def main():
    commit = git('rev-parse', REV).strip()
    wanted = wanted_ids()
    records = {}
    for path in git('ls-tree', '-r', '--name-only', commit, 'models').split('\n'):
        if not path.endswith('/manifest.yaml'):
            continue
        manifest = yaml.safe_load(git('show', f'{commit}:{path}'))
        repo_id, family, config = manifest.get('parent_id'), manifest.get('architecture'), manifest.get('config') or {}
        if not repo_id or '/' not in repo_id or repo_id.lower() not in wanted or family not in FAMILIES:
            continue
        if any(not isinstance(config.get(k), int) or config[k] <= 0 for k in FIELDS):
            continue
        record = {'id': repo_id, 'config': {'model_type': family, **{hf: config[k] for k, hf in FIELDS.items()}},
                  'settle': ['tie_word_embeddings'], 'where': path}
        if repo_id in records and records[repo_id]['config'] != record['config']:
            raise SystemExit(f'{repo_id}: two manifests disagree')
        records.setdefault(repo_id, record)
    source = github_source('Co:Here inference configurations (model manifests: shapes of the parent Hugging Face repo)',
                           'leliuga/cohere-configurations', 'models/*/manifest.yaml', commit, 'MPL-2.0 (the repository); the values are facts of the models',
                           kind='tree', url_path='models')
    write_input(OUT, source, 'models', sorted(records.values(), key=lambda r: r['id'].lower()))


main()
