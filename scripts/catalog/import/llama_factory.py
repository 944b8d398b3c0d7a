"""Extracts LLaMA-Factory's model registry into scripts/catalog/inputs/registries/llama-factory.json.

    python3 scripts/catalog/import/llama_factory.py <LLaMA-Factory git dir> [rev]

Reads src/llamafactory/extras/constants.py as a Python syntax tree (nothing is executed): every
`register_model_group(models={display name: {DownloadSource.X: id}}, template=...)` becomes a family named
after its template, with each model's display name, Hugging Face id and ModelScope id.
"""
import ast
import os
import subprocess
import sys

from inputfile import github_source, write_input

REPO, REV = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'HEAD')
OUT = os.path.join(os.path.dirname(__file__), '..', 'inputs', 'registries', 'llama-factory.json')
PATH = 'src/llamafactory/extras/constants.py'


def git(*args):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=True).stdout


def string(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def main():
    commit = git('rev-parse', REV).strip()
    tree = ast.parse(git('show', f'{REV}:{PATH}'))
    records = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == 'register_model_group'):
            continue
        kw = {k.arg: k.value for k in n.keywords}
        template = string(kw.get('template')) or 'default'
        models = []
        if isinstance(kw.get('models'), ast.Dict):
            for name, sources in zip(kw['models'].keys, kw['models'].values):
                ids = {}
                if isinstance(sources, ast.Dict):
                    for k, v in zip(sources.keys, sources.values):
                        if isinstance(k, ast.Attribute) and string(v):
                            ids[k.attr] = string(v)
                if ids.get('DEFAULT') or ids.get('MODELSCOPE'):
                    models.append({'name': string(name), 'hf': ids.get('DEFAULT'), 'ms': ids.get('MODELSCOPE')})
        multimodal = isinstance(kw.get('multimodal'), ast.Constant) and kw['multimodal'].value is True
        if models:
            records.append({'family': template, 'multimodal': multimodal, 'models': models, 'where': f'{PATH}:{n.lineno}'})
    source = github_source('LLaMA-Factory supported models', 'hiyouga/LLaMA-Factory', PATH, commit, 'Apache-2.0')
    write_input(OUT, source, 'families', records)


main()
