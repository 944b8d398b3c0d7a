import type { TextOp } from '../../diagnostics/fixData';
import { insertText, replaceText } from '../../diagnostics/textOps';
import type { SourceContext } from '../command/context';

/** Fix ops on a shell script that keep its continuation layout intact. */
export class ScriptEditor {
  private readonly text: string;

  constructor(ctx: SourceContext) {
    this.text = ctx.document.getText();
  }

  replace(start: number, end: number, newText: string): TextOp {
    return replaceText(this.text, start, end, newText);
  }

  insert(at: number, newText: string): TextOp {
    return insertText(this.text, at, newText);
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  lineEnd(offset: number): number {
    const nl = this.text.indexOf('\n', offset);
    return nl < 0 ? this.text.length : nl;
  }

  indentAt(offset: number): string {
    const start = this.lineStart(offset);
    return /^[ \t]*/.exec(this.text.slice(start))![0];
  }

  /** How the line at `offset` ends, for a line written beside it: a CRLF script stays CRLF. */
  lineEndingAt(offset: number): string {
    return this.text[this.lineEnd(offset) - 1] === '\r' ? '\r\n' : '\n';
  }

  /**
   * Removes the words in [start, end). A line that held nothing else goes entirely; when it was the
   * command's last line, the ` \` that continued the line before it goes too.
   */
  removeWords(start: number, end: number): TextOp {
    const { text } = this;
    const ls = this.lineStart(start);
    const le = this.lineEnd(end);
    const before = text.slice(ls, start);
    const after = text.slice(end, le);
    if (/^[ \t]*$/.test(before) && /^[ \t]*(\\[ \t]*)?\r?$/.test(after)) {
      if (/\\/.test(after)) return this.replace(ls, Math.min(le + 1, text.length), '');
      return this.removeFromPreviousContinuation(ls, le);
    }
    let s = start;
    while (s > ls && (text[s - 1] === ' ' || text[s - 1] === '\t')) s--;
    if (s === ls) {
      let e = end;
      while (e < le && (text[e] === ' ' || text[e] === '\t')) e++;
      return this.replace(start, e, '');
    }
    return this.replace(s, end, '');
  }

  /** The command's last line goes: delete from the ` \` ending the previous line to the end of this one. */
  private removeFromPreviousContinuation(lineStart: number, lineEnd: number): TextOp {
    const prevEnd = lineStart - 1;
    if (prevEnd < 0) return this.replace(lineStart, Math.min(lineEnd + 1, this.text.length), '');
    const prevLine = this.text.slice(this.lineStart(prevEnd), prevEnd);
    const m = /[ \t]*\\[ \t]*\r?$/.exec(prevLine);
    if (!m) return this.replace(lineStart, Math.min(lineEnd + 1, this.text.length), '');
    return this.replace(prevEnd - m[0].length, lineEnd, '');
  }

  /**
   * Puts an environment assignment in front of a program word: as its own ` \` line when the program
   * starts a continued line (the ms-swift example layout), else inline before the word.
   */
  insertBeforeProgram(programStart: number, assignment: string): TextOp {
    const ls = this.lineStart(programStart);
    const continued = /\\[ \t]*\r?$/.test(this.text.slice(ls, this.lineEnd(programStart)));
    if (continued && /^[ \t]*$/.test(this.text.slice(ls, programStart))) {
      return this.insert(ls, `${this.indentAt(programStart)}${assignment} \\${this.lineEndingAt(programStart)}`);
    }
    return this.insert(programStart, `${assignment} `);
  }
}
