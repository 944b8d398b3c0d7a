"""Extracts ms-swift's model registry (model types, ModelScope and Hugging Face ids) into
scripts/catalog/inputs/registries/ms-swift.json.

    python3 scripts/catalog/import/ms_swift.py <ms-swift git dir> [rev]

Reads swift/model/models/*.py (4.x) or swift/llm/model/model/*.py (3.x) as Python syntax trees; nothing is
executed. Each `register_model(ModelMeta(<ModelType>.<name>, [ModelGroup([Model(ms_id, hf_id), ...]), ...]))`
becomes a family with its id pairs.
"""
import ast
import os
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'registries', 'ms-swift.json')


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def string(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def call_name(node):
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def models_in(node):
    """(ms, hf) of every Model(...) call below node."""
    out = []
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and call_name(n) == 'Model':
            args = [string(a) for a in n.args[:2]] + [None, None]
            kw = {k.arg: string(k.value) for k in n.keywords}
            ms = kw.get('ms_model_id', args[0])
            hf = kw.get('hf_model_id', args[1])
            if ms or hf:
                out.append({'ms': ms, 'hf': hf})
    return out


def families(source, path):
    found = []
    for n in ast.walk(ast.parse(source)):
        if not (isinstance(n, ast.Call) and call_name(n) == 'ModelMeta' and n.args):
            continue
        kind = n.args[0]
        family = kind.attr if isinstance(kind, ast.Attribute) else string(kind)
        models = models_in(n.args[1]) if len(n.args) > 1 else []
        arch = next((k.value for k in n.keywords if k.arg == 'architectures'), None)
        architectures = [string(e) for e in arch.elts] if isinstance(arch, (ast.List, ast.Tuple)) else []
        if family and models:
            found.append({'family': family, 'architectures': [a for a in architectures if a], 'models': models, 'where': f'{path}:{n.lineno}'})
    return found


def main():
    commit = git('rev-parse', REV).strip()
    files = [f for f in git('ls-tree', '-r', '--name-only', REV).splitlines()
             if f.endswith('.py') and (f.startswith('swift/model/models/') or f.startswith('swift/llm/model/model/'))]
    records = []
    for f in sorted(files):
        records += families(git('show', f'{REV}:{f}'), f)
    source = github_source('ms-swift model registry', 'modelscope/ms-swift', 'swift/model/models/*.py', commit, 'Apache-2.0',
                           kind='tree', url_path='swift/model/models')
    write_input(OUT, source, 'families', records)


main()
