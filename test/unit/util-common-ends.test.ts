import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commonEnds } from '../../server/src/util/commonLength';

/** The same answer by walking the characters one by one. */
function byCharacters(before: string, after: string): { start: number; tail: number } {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start++;
  let tail = 0;
  while (tail < shorter - start && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return { start, tail };
}

test('commonEnds: the common start, then the common end after it, as a walk over the characters finds them', () => {
  assert.deepEqual(commonEnds('"stage": 2', '"stage": 3'), { start: 9, tail: 0 });
  assert.deepEqual(commonEnds('abc', 'abc'), { start: 3, tail: 0 });
  assert.deepEqual(commonEnds('aXa', 'aa'), { start: 1, tail: 1 });
  assert.deepEqual(commonEnds('', 'abc'), { start: 0, tail: 0 });
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), fc.nat(), fc.nat(), (text, cut, put, at, length) => {
      const from = at % (text.length + 1);
      const edited = text.slice(0, from) + put + text.slice(Math.min(text.length, from + (length % 4)));
      assert.deepEqual(commonEnds(text, edited), byCharacters(text, edited));
      assert.deepEqual(commonEnds(text + cut, edited), byCharacters(text + cut, edited));
    }),
    { numRuns: 500 },
  );
});

test('commonEnds: asked again about the same two texts, it gives the kept answer; about others, their own', () => {
  const before = `{\n  "train_micro_batch_size_per_gpu": 1,\n  "steps_per_print": 100\n}\n`;
  const after = before.replace('100', '101');
  const first = commonEnds(before, after);
  assert.equal(commonEnds(before, after), first, 'the same object: not searched again');
  assert.deepEqual(commonEnds(after, before), first);
  assert.deepEqual(commonEnds(before, before.replace('1,', '2,')), byCharacters(before, before.replace('1,', '2,')));
});
