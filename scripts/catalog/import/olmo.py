"""Extracts whether the first OLMo models tie their embeddings from their training configs into
scripts/catalog/inputs/stated/olmo.json.

    python3 scripts/catalog/import/olmo.py <allenai/OLMo git dir> [rev]

configs/official-*/<run>.yaml are the configs AI2 trained the OLMo models with; `model.weight_tying` says
whether the output layer is the embedding. CONFIG_IDS names the Hugging Face repo (transformers format, `-hf`)
of each run taken: only those whose shapes the catalog takes from a table that leaves tying unsaid (litgpt).
Only the flag is kept; the configs are read as text.
"""
import os
import re
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'stated', 'olmo.json')
CONFIG_IDS = {
    'configs/official-0724/OLMo-7B.yaml': 'allenai/OLMo-7B-hf',
}
TYING = re.compile(r'^\s+weight_tying:\s*(true|false)\s*$', re.M)


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def main():
    commit = git('rev-parse', REV).strip()
    fields = []
    for path, repo_id in CONFIG_IDS.items():
        flags = TYING.findall(git('show', f'{commit}:{path}'))
        if len(flags) != 1:
            raise SystemExit(f'{path}: no single weight_tying')
        fields.append({'id': repo_id, 'tie_word_embeddings': flags[0] == 'true', 'where': f'{path}: weight_tying: {flags[0]}'})
    source = github_source('OLMo training configs (allenai/OLMo)', 'allenai/OLMo', 'configs/official-*/*.yaml', commit, 'Apache-2.0',
                           kind='tree', url_path='configs')
    write_input(OUT, source, 'fields', fields)


main()
