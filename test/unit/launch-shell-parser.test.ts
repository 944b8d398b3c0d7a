import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseShell } from '../../server/src/launch/shell/parser';
import { environmentFor } from '../../server/src/launch/shell/variables';
import type { ShellScript } from '../../server/src/launch/shell/types';
import { launchFixture } from './launch-helpers';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

const words = (s: ShellScript, i: number) => s.commands[i].words.map((w) => w.value);
const resolved = (s: ShellScript, i: number) => {
  const env = environmentFor(s, s.commands[i]);
  return s.commands[i].words.map((w) => env.resolve(w) ?? `<${w.value}>`);
};

test('every real command shape parses into commands whose word offsets point at their raw text', () => {
  const dir = path.resolve(__dirname, '../fixtures/launch/shapes');
  for (const name of readdirSync(dir)) {
    const text = launchFixture(`shapes/${name}`);
    const script = parseShell(text);
    assert.ok(script.commands.some((c) => c.words.length > 0), name);
    assert.deepEqual(script.issues, [], name);
    for (const c of script.commands) {
      for (const w of [...c.words, ...c.envPrefix.map((a) => a.value)]) assert.equal(text.slice(w.start, w.end), w.raw, `${name}: ${w.raw}`);
      for (const a of c.envPrefix) assert.ok(text.slice(a.start, a.end).startsWith(`${a.name}=`), name);
    }
  }
});

test('shape 1: plain assignment, prefixes, continuations, quotes and $(expr) arithmetic', () => {
  const s = parseShell(launchFixture('shapes/01-train_zero2.sh'));
  assert.equal(s.commands.length, 2);
  assert.equal(s.assignments[0].name, 'nproc_per_node');
  assert.equal(s.assignments[0].kind, 'plain');
  const cmd = s.commands[1];
  assert.deepEqual(cmd.envPrefix.map((a) => a.name), ['CUDA_VISIBLE_DEVICES', 'NPROC_PER_NODE']);
  assert.equal(cmd.startLine, 2);
  assert.equal(cmd.endLine, 13);
  assert.equal(words(s, 1)[0], 'swift');
  assert.ok(words(s, 1).includes('swift/self-cognition#1000'), 'quote removal keeps # inside quotes');
  assert.ok(resolved(s, 1).includes('8'), '$(expr 16 / $nproc_per_node) → 8');
  const env = environmentFor(s, cmd);
  assert.equal(env.value('NPROC_PER_NODE'), '2');
  assert.deepEqual(s.comments.map((c) => s.text.slice(c.start, c.end)), ['# 18GiB * 2']);
});

test('quoting: single, double with expansions and escapes, ANSI-C, adjacent pieces', () => {
  const s = parseShell(`echo 'a b' "c $X d" $'e\\tf' g"h"'i' \\$j "k\\"l" x\\ y`);
  assert.deepEqual(words(s, 0), ['echo', 'a b', 'c $X d', 'e\tf', 'ghi', '$j', 'k"l', 'x y']);
  const w = s.commands[0].words[2];
  assert.equal(w.hasExpansion, true);
  assert.deepEqual(w.parts.map((p) => p.kind), ['text', 'var', 'text']);
  assert.equal(s.commands[0].words[5].hasExpansion, false, 'an escaped dollar is literal');
});

test('expansions stay opaque words with offsets: ${X}, $(…) with nested parens and quotes, backticks, $((…))', () => {
  const text = 'cmd ${A:-x} $(echo "(a)" $(date)) `hostname` $((1 + 2)) pre${B}post';
  const s = parseShell(text);
  const ws = s.commands[0].words;
  assert.deepEqual(ws.map((w) => w.raw), ['cmd', '${A:-x}', '$(echo "(a)" $(date))', '`hostname`', '$((1 + 2))', 'pre${B}post']);
  assert.equal(ws[2].parts[0].kind, 'command');
  assert.equal(ws[4].parts[0].kind, 'arith');
  const env = environmentFor(s, s.commands[0]);
  assert.equal(env.resolve(ws[1]), 'x', '${A:-x} falls back when A is unset');
  assert.equal(env.resolve(ws[4]), '3');
  assert.equal(env.resolve(ws[5]), undefined, 'unknown variables are not invented');
});

test('variables: plain, export, ${X}, exported later, prefix visible only to its command, $((a / b))', () => {
  const s = parseShell(['DS=configs/ds.json', 'n=8', 'export NPROC_PER_NODE=$n', 'G=4', 'export G', 'A=1 run --x ${DS} $((32 / n))', 'run $A'].join('\n'));
  const run = s.commands.findIndex((c) => c.words[0]?.value === 'run');
  assert.deepEqual(resolved(s, run), ['run', '--x', 'configs/ds.json', '4']);
  const env = environmentFor(s, s.commands[run]);
  assert.equal(env.envBinding('NPROC_PER_NODE')?.value, '8');
  assert.equal(env.envBinding('G')?.value, '4', 'export after assignment exports it');
  assert.equal(env.envBinding('DS'), undefined, 'not exported: not in the environment');
  assert.equal(env.value('DS'), 'configs/ds.json');
  assert.deepEqual(resolved(s, run + 1), ['run', '<$A>'], 'a prefix assignment does not outlive its command');
  assert.deepEqual(s.assignments.map((a) => `${a.kind}:${a.name}`), ['plain:DS', 'plain:n', 'export:NPROC_PER_NODE', 'plain:G', 'prefix:A']);
});

test('operators split commands: ; && || | & and newlines; redirections are not words', () => {
  const s = parseShell('a 1; b 2 && c 3 || d 4 | e 5 & f 6\nnohup swift sft --x 1 > log.txt 2>&1 &\ng');
  assert.deepEqual(s.commands.map((c) => c.words[0]?.value), ['a', 'b', 'c', 'd', 'e', 'f', 'nohup', 'g']);
  assert.deepEqual(s.commands.map((c) => c.separator), [';', '&&', '||', '|', '&', 'newline', '&', 'eof']);
  assert.deepEqual(words(s, 6), ['nohup', 'swift', 'sft', '--x', '1']);
  assert.deepEqual(s.commands[6].redirects.map((r) => `${r.op}${r.target?.value ?? ''}`), ['>log.txt', '>&1']);
});

test('comments: whole-line, trailing, and # inside a word is literal', () => {
  const s = parseShell('# head\nswift sft --dataset a#100 # trailing\n  # indented');
  assert.deepEqual(words(s, 0), ['swift', 'sft', '--dataset', 'a#100']);
  assert.equal(s.comments.length, 3);
});

test('heredocs: bodies are skipped (also <<- with tabs and quoted delimiters)', () => {
  const s = parseShell("cat <<EOF > a.json\nswift sft --deepspeed nope\nEOF\ncat <<-'END'\n\tswift infer\n\tEND\necho done");
  assert.deepEqual(s.commands.map((c) => c.words[0]?.value), ['cat', 'cat', 'echo']);
  assert.equal(s.heredocs.length, 2);
  assert.deepEqual(s.issues, []);
});

test('unterminated heredoc or quote is reported, not thrown', () => {
  assert.deepEqual(parseShell('cat <<EOF\nno end').issues.map((i) => i.kind), ['unterminated']);
  const s = parseShell("swift sft --model 'Qwen");
  assert.equal(s.commands[0].words[3].value, 'Qwen');
  assert.equal(s.issues[0].kind, 'unterminated');
});

test('continuation broken by a blank line: joined when the next line is indented or a flag, reported either way', () => {
  const s = parseShell('CUDA_VISIBLE_DEVICES=0,1 \\\n\nswift sft \\\n    --model m \\\n\n    --deepspeed zero2\n');
  assert.equal(s.commands.length, 1, 'an env-only prefix joins the command below (what the author meant)');
  assert.deepEqual(words(s, 0), ['swift', 'sft', '--model', 'm', '--deepspeed', 'zero2']);
  const issues = s.issues.filter((i) => i.kind === 'broken-continuation');
  assert.equal(issues.length, 2);
  assert.ok(issues.every((i) => i.kind === 'broken-continuation' && i.joined && i.reason === 'blank-line'));
  const apart = parseShell('swift sft --model m \\\n\necho next\n');
  assert.deepEqual(apart.commands.map((c) => c.words[0].value), ['swift', 'echo'], 'an unindented non-flag line is a new command');
  assert.equal(apart.issues[0].kind === 'broken-continuation' && apart.issues[0].joined, false);
});

test('a comment line inside a continuation breaks it (bash) and is reported', () => {
  const s = parseShell('swift sft \\\n    # --lora_rank 8 \\\n    --deepspeed zero3\n');
  assert.deepEqual(words(s, 0), ['swift', 'sft', '--deepspeed', 'zero3']);
  assert.equal(s.issues[0].kind === 'broken-continuation' && s.issues[0].reason, 'comment-line');
});

test('trailing spaces after the backslash are reported with their exact range, and the lines stay joined', () => {
  const text = 'swift sft \\  \n    --deepspeed zero2';
  const s = parseShell(text);
  assert.deepEqual(words(s, 0), ['swift', 'sft', '--deepspeed', 'zero2']);
  const issue = s.issues[0];
  assert.equal(issue.kind, 'trailing-space');
  assert.ok(issue.kind === 'trailing-space');
  assert.equal(text.slice(issue.start, issue.end), '  ');
});

test('a continuation inside a word joins its halves; CRLF line endings work', () => {
  assert.deepEqual(words(parseShell('echo ab\\\ncd'), 0), ['echo', 'abcd']);
  const s = parseShell('A=1 \\\r\nswift sft \\\r\n  --deepspeed zero2\r\n');
  assert.deepEqual(words(s, 0), ['swift', 'sft', '--deepspeed', 'zero2']);
  assert.equal(s.commands[0].envPrefix[0].name, 'A');
});

test('reserved words before a command, arrays, and several commands on one line', () => {
  const s = parseShell('if [ -f x ]; then swift sft --x 1; fi\nARR=(a b c) ; for i in 1 2; do torchrun t.py; done');
  assert.ok(s.commands.some((c) => c.words[0]?.value === 'swift'));
  assert.ok(s.commands.some((c) => c.words[0]?.value === 'torchrun'));
  assert.equal(s.assignments.find((a) => a.name === 'ARR')?.value.raw, '(a b c)');
});

test('empty and odd inputs give an answer', () => {
  for (const text of ['', '\\', '\\\n', '"', "'", '$(', '${', '`', '<<', '&&&&', ')))', '\u0000\uffff', '#', 'a=\\']) {
    const s = parseShell(text);
    assert.ok(Array.isArray(s.commands), JSON.stringify(text));
  }
});
