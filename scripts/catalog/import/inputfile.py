"""Writes an input file of scripts/catalog/inputs: the source block, then one record per line (diffs stay small)."""
import json
import os


def write_input(path, source, key, records):
    lines = [json.dumps(r, ensure_ascii=False, separators=(', ', ': ')) for r in records]
    with open(path, 'w') as f:
        f.write('{\n "source": ' + json.dumps(source, ensure_ascii=False) + ',\n "' + key + '": [\n  ')
        f.write(',\n  '.join(lines))
        f.write('\n ]\n}\n')
    print(f'{len(records)} {key} -> {os.path.relpath(path)}')


def github_source(title, repo, path, commit, licence, kind='blob', url_path=None, **extra):
    """The `source` block of an input file read from a GitHub repository at `commit`: `kind` is `blob` for a
    file, `tree` for a folder; the URL points at `url_path` (default `path`; '' for the repository)."""
    where = path if url_path is None else url_path
    url = f'https://github.com/{repo}/{kind}/{commit}' + (f'/{where}' if where else '')
    return {'title': title, 'repo': repo, 'path': path, 'commit': commit, 'url': url, 'licence': licence, **extra}
