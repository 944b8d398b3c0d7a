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
