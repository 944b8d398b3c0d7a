"""Extracts whether NeMo's model configs tie the embeddings into scripts/catalog/inputs/stated/nemo.json.

    python3 scripts/catalog/import/nemo.py <NVIDIA/NeMo git dir> [rev]

nemo/collections/llm/gpt/model/*.py define one config dataclass per released model size (CodeLlamaConfig70B,
...), each with `share_embeddings_and_output_weights` set in it or in a class it extends; NeMo's Hugging Face
importers build that config for the model's checkpoints. CONFIG_IDS below names, per config class, the
Hugging Face repos of the releases it is the architecture of (the base model and its Instruct and Python
releases, same shapes). The files are read as syntax trees; only the flag is kept. Only models whose shapes
the catalog takes from a table that leaves tying unsaid (litgpt) are listed: elsewhere the config.json says it.
"""
import ast
import os
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'stated', 'nemo.json')
DIR = 'nemo/collections/llm/gpt/model'
FILES = ['base.py', 'llama.py']
FLAG = 'share_embeddings_and_output_weights'

CONFIG_IDS = {
    'CodeLlamaConfig7B': ['codellama/CodeLlama-7b-hf', 'codellama/CodeLlama-7b-Instruct-hf', 'codellama/CodeLlama-7b-Python-hf'],
    'CodeLlamaConfig13B': ['codellama/CodeLlama-13b-hf', 'codellama/CodeLlama-13b-Instruct-hf', 'codellama/CodeLlama-13b-Python-hf'],
    'CodeLlamaConfig34B': ['codellama/CodeLlama-34b-hf', 'codellama/CodeLlama-34b-Instruct-hf', 'codellama/CodeLlama-34b-Python-hf'],
    'CodeLlamaConfig70B': ['codellama/CodeLlama-70b-hf', 'codellama/CodeLlama-70b-Instruct-hf', 'codellama/CodeLlama-70b-Python-hf'],
}


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def classes(commit):
    """Class name -> (base names, the flag's value if the body sets it, file:line)."""
    found = {}
    for name in FILES:
        path = f'{DIR}/{name}'
        for node in ast.parse(git('show', f'{commit}:{path}')).body:
            if not isinstance(node, ast.ClassDef):
                continue
            flag = None
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == FLAG:
                    flag = (ast.literal_eval(stmt.value), f'{path}:{stmt.lineno}')
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            found[node.name] = (bases, flag, f'{path}:{node.lineno}')
    return found


def flag_of(name, found):
    """The flag as the class or the nearest class it extends sets it."""
    bases, flag, _ = found[name]
    if flag:
        return flag
    for base in bases:
        if base in found:
            inherited = flag_of(base, found)
            if inherited:
                return inherited
    return None


def main():
    commit = git('rev-parse', REV).strip()
    found = classes(commit)
    fields = []
    for name, ids in CONFIG_IDS.items():
        value, where = flag_of(name, found)
        for repo_id in ids:
            fields.append({'id': repo_id, 'tie_word_embeddings': value, 'where': f'{found[name][2]} {name}: {FLAG} = {value} ({where})'})
    source = github_source('NeMo model configs (share_embeddings_and_output_weights)', 'NVIDIA/NeMo', DIR, commit, 'Apache-2.0', kind='tree')
    write_input(OUT, source, 'fields', sorted(fields, key=lambda f: f['id'].lower()))


main()
