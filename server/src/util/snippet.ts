/**
 * The text an LSP snippet inserts when every tab stop is left as it is: a placeholder gives its default, a
 * choice its first option, a bare tab stop or a variable nothing. For editors without snippet support (Neovim's
 * built-in completion before 0.11), which would otherwise insert `${1|true,false|}` literally, and for previews.
 * The grammar is the one in the LSP specification ("Snippet Syntax"); a `$` or `${` that starts none of its
 * forms stays as written, as editors read it.
 */
export function snippetAsText(snippet: string): string {
  return new SnippetReader(snippet).text('');
}

class SnippetReader {
  private at = 0;

  constructor(private readonly source: string) {}

  /** Reads text up to one of `stops` (unescaped) or the end; `stops` are `}` inside a placeholder. */
  text(stops: string): string {
    let out = '';
    while (this.at < this.source.length) {
      const c = this.source[this.at];
      if (stops.includes(c)) return out;
      if (c === '\\' && this.at + 1 < this.source.length && '\\$}'.includes(this.source[this.at + 1])) {
        out += this.source[this.at + 1];
        this.at += 2;
      } else if (c === '$') {
        out += this.dollar();
      } else {
        out += c;
        this.at++;
      }
    }
    return out;
  }

  /** At a `$`: a tab stop, placeholder, choice or variable, read to its end; else the `$` itself. */
  private dollar(): string {
    const start = this.at;
    const bare = /^\$(\d+|[A-Za-z_][A-Za-z0-9_]*)/.exec(this.source.slice(start, start + 128));
    if (bare) {
      this.at += bare[0].length;
      return '';
    }
    const head = /^\$\{(\d+|[A-Za-z_][A-Za-z0-9_]*)/.exec(this.source.slice(start, start + 128));
    if (head) {
      this.at += head[0].length;
      const value = this.rest();
      if (value !== undefined) return value;
    }
    this.at = start + 1;
    return '$';
  }

  /** After `${name`: `}`, `:default}` or `|a,b|}`; the inserted text, or undefined when none of them follows. */
  private rest(): string | undefined {
    const c = this.source[this.at];
    if (c === '}') {
      this.at++;
      return '';
    }
    if (c === ':') {
      this.at++;
      const value = this.text('}');
      if (this.source[this.at] !== '}') return undefined;
      this.at++;
      return value;
    }
    if (c === '|') return this.choice();
    return undefined;
  }

  /** After `${1`, at `|`: the first option of `|a,b|}`. */
  private choice(): string | undefined {
    const options: string[] = [''];
    for (let i = this.at + 1; i < this.source.length; i++) {
      const c = this.source[i];
      if (c === '\\' && i + 1 < this.source.length && '\\$}|,'.includes(this.source[i + 1])) {
        options[options.length - 1] += this.source[++i];
      } else if (c === ',') {
        options.push('');
      } else if (c === '|' && this.source[i + 1] === '}') {
        this.at = i + 2;
        return options[0];
      } else {
        options[options.length - 1] += c;
      }
    }
    return undefined;
  }
}
