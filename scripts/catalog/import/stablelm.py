"""Extracts the exact parameter counts Stability AI publishes for its StableLM checkpoints into
scripts/catalog/inputs/counts/stablelm.json.

    python3 scripts/catalog/import/stablelm.py <Stability-AI/StableLM git dir> [rev]

The README's model tables give, per row, the Hugging Face checkpoint(s) (`[checkpoint](https://huggingface.co/<id>)`)
and the count in a `Parameters` column, written with thousands separators (`3,638,525,952`). Every row
holding both is taken, for each checkpoint it links (a Base and a Tuned release share a row and a count).
Only the ids and numbers are kept.
"""
import os
import re
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'counts', 'stablelm.json')
CHECKPOINT = re.compile(r'\[checkpoint\]\(https://huggingface\.co/([\w.-]+/[\w.-]+?)/?\)')
COUNT = re.compile(r'\|\s*(\d{1,3}(?:,\d{3}){2,})\s*\|')


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def main():
    commit = git('rev-parse', REV).strip()
    counts = {}
    for number, line in enumerate(git('show', f'{commit}:README.md').split('\n'), 1):
        ids, totals = CHECKPOINT.findall(line), COUNT.findall(line)
        if not ids or len(totals) != 1:
            continue
        for repo_id in ids:
            counts[repo_id] = {'id': repo_id, 'total': int(totals[0].replace(',', '')), 'where': f'README.md line {number}'}
    source = github_source('StableLM README model tables (published parameter counts)', 'Stability-AI/StableLM', 'README.md', commit, 'Apache-2.0')
    write_input(OUT, source, 'counts', sorted(counts.values(), key=lambda c: c['id'].lower()))


main()
