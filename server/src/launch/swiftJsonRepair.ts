/**
 * ms-swift does not give up on an inline `--deepspeed` value that `json.loads` rejects: `json_parse_to_dict`
 * (swift/utils/utils.py:422-432) runs `json_repair.repair_json` on it and parses the result. json_repair
 * guesses at a lot of broken text, and some guesses change the meaning (a bare word becomes '', `None`
 * becomes the string "None", a `\n` escape in a single-quoted string disappears), so this accepts only the
 * repairs checked against json_repair (HEAD 600ede6b: each shape below, and ~10,000 random mixes of them,
 * give the same object through json_repair and through this):
 *
 * - single-quoted strings and keys (parse_string.py:205-206 makes `'` the delimiter), when they hold no
 *   quote, backslash, control character or JSON punctuation;
 * - one trailing comma right after a member or item, before `}` or `]` (parse_object.py:455, parse_array.py:101);
 * - Python's `True` / `False` (parse_string_helpers/parse_boolean_or_null.py).
 *
 * Anything else, any backslash at all (json_repair rewrites escapes in its own way, parse_string.py:274-330),
 * and the empty values and repeated keys below leave the text unrepaired, so it is still reported as invalid.
 */

export interface RepairedJson {
  /** Valid JSON: the original text with only the repairs above applied (its spacing kept). */
  json: string;
  value: unknown;
}

const pythonBooleans: Record<string, string> = { True: 'true', False: 'false' };

/**
 * A single-quoted string body json_repair reads back unchanged: no quote, backslash or control character,
 * no JSON punctuation (json_repair looks ahead for delimiters, and a key `'a:b'` can split at its colon) and
 * no typographic quote (`„` opens a nested span in parse_string.py).
 */
function plainSingleQuoted(body: string): boolean {
  // „ “ ” as escapes: a bundle with any non-ASCII character is held as a two-byte string, twice its size.
  return body !== '' && !/["'\\\u0000-\u001f{}[\],:\u201e\u201c\u201d]/.test(body);
}

/**
 * Empty values json_repair reads differently once it is repairing: an empty string, `{ }` with space
 * inside (it becomes `[]`, parse_object.py:296), or `{}` / `[]` followed by space (dropped from an
 * array, parse_array.py:87-88).
 */
function hasTrickyEmptyValue(json: string): boolean {
  const shapes = json.replace(/"[^"]*"/g, (s) => (s === '""' ? '""' : '"s"'));
  return shapes.includes('""') || /\{\s+\}|\[\s+\]|(\{\}|\[\])\s/.test(shapes);
}

/** An object repeats a key: inside an array json_repair splits it into two objects (parse_object.py:399-410). */
function hasDuplicateKey(json: string): boolean {
  const open: (Set<string> | undefined)[] = [];
  let previous = '';
  for (const [token] of json.matchAll(/"[^"]*"|[{}[\]:]/g)) {
    if (token === '{') open.push(new Set());
    else if (token === '[') open.push(undefined);
    else if (token === '}' || token === ']') open.pop();
    else if (token === ':') {
      const keys = open[open.length - 1];
      if (keys?.has(previous)) return true;
      keys?.add(previous);
    }
    previous = token;
  }
  return false;
}

/**
 * The last character written closes a value, so a comma right after it is a trailing one. With space
 * before the comma, json_repair misses it (parse_object.py:455 looks only at the next character) and
 * merges the rest of the text into the inner object.
 */
function endsValue(out: string): boolean {
  const last = out.slice(-1);
  return last !== '' && !/[\s{[,:]/.test(last);
}

/** What ms-swift reads from `text` after json_repair, when `text` needs (only) the repairs above; else undefined. */
export function swiftRepairedJson(text: string): RepairedJson | undefined {
  if (text.includes('\\')) return undefined;
  let out = '';
  let repaired = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const close = text.indexOf('"', i + 1);
      if (close < 0) return undefined;
      out += text.slice(i, close + 1);
      i = close + 1;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      const body = close < 0 ? '' : text.slice(i + 1, close);
      if (close < 0 || !plainSingleQuoted(body)) return undefined;
      out += JSON.stringify(body);
      repaired = true;
      i = close + 1;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1)) && endsValue(out)) {
      repaired = true;
      i++;
    } else if (/[A-Za-z]/.test(c)) {
      const word = /^[A-Za-z_]\w*/.exec(text.slice(i))![0];
      const python = pythonBooleans[word];
      out += python ?? word;
      repaired ||= python !== undefined;
      i += word.length;
    } else {
      out += c;
      i++;
    }
  }
  if (!repaired || hasTrickyEmptyValue(out) || hasDuplicateKey(out)) return undefined;
  try {
    return { json: out, value: JSON.parse(out) };
  } catch {
    return undefined;
  }
}
