"""Extracts whether the Pythia models tie their embeddings from their GPT-NeoX training configs into
scripts/catalog/inputs/stated/pythia.json.

    python3 scripts/catalog/import/pythia.py <EleutherAI/pythia git dir> [rev]

models/<size>/pythia-<size>[-deduped].yml are the configs the Pythia suite was trained with; the README maps
each to its Hugging Face repo, EleutherAI/pythia-<size>[-deduped]. `"no-weight-tying": true` means the output
layer is its own matrix (tie_word_embeddings false in the converted config.json). The config table the
catalog reads Pythia's shapes from (litgpt) does not say it, and the hub totals of Pythia count each layer's
attention-mask buffers, so this is what settles it. Only that flag is kept; the configs are read as text.
"""
import os
import re
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'stated', 'pythia.json')
CONFIG = re.compile(r'^models/[^/]+/(pythia-[0-9.]+[mb](-deduped)?)\.yml$', re.I)
TYING = re.compile(r'"no-weight-tying"\s*:\s*(true|false)')


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def main():
    commit = git('rev-parse', REV).strip()
    readme = git('show', f'{commit}:README.md')
    fields = []
    for path in git('ls-tree', '-r', '--name-only', commit, 'models').split('\n'):
        match = CONFIG.match(path)
        if not match:
            continue
        repo_id = f'EleutherAI/{match.group(1)}'
        if f'huggingface.co/{repo_id})' not in readme:
            raise SystemExit(f'{repo_id}: not a checkpoint the README links')
        flags = TYING.findall(git('show', f'{commit}:{path}'))
        if len(flags) != 1:
            raise SystemExit(f'{path}: no single no-weight-tying flag')
        fields.append({'id': repo_id, 'tie_word_embeddings': flags[0] != 'true', 'where': f'{path}: "no-weight-tying": {flags[0]}'})
    fields.sort(key=lambda f: f['id'].lower())
    source = github_source('Pythia training configs (EleutherAI/pythia)', 'EleutherAI/pythia', 'models/*/pythia-*.yml', commit, 'Apache-2.0',
                           kind='tree', url_path='models')
    write_input(OUT, source, 'fields', fields)


main()
