import { test } from 'node:test';
import assert from 'node:assert/strict';
import { historyStepOf, type KeyPress } from '../../client/src/sidebar/webview/historyKeys';

const button = { tagName: 'VSCODE-BUTTON' };
const body = { tagName: 'BODY' };

function press(key: string, modifiers: Partial<Omit<KeyPress, 'key' | 'composedPath'>> = {}, path: unknown[] = [button, body]): KeyPress {
  return { key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...modifiers, composedPath: () => path };
}

test('Ctrl+Z / Cmd+Z undo; Ctrl+Shift+Z, Cmd+Shift+Z and Ctrl+Y redo', () => {
  assert.equal(historyStepOf(press('z', { ctrlKey: true })), 'undo');
  assert.equal(historyStepOf(press('z', { metaKey: true })), 'undo');
  assert.equal(historyStepOf(press('Z', { ctrlKey: true, shiftKey: true })), 'redo');
  assert.equal(historyStepOf(press('Z', { metaKey: true, shiftKey: true })), 'redo');
  assert.equal(historyStepOf(press('y', { ctrlKey: true })), 'redo');
});

test('other keys and modifier sets are not history steps', () => {
  assert.equal(historyStepOf(press('z')), undefined);
  assert.equal(historyStepOf(press('z', { shiftKey: true })), undefined);
  assert.equal(historyStepOf(press('z', { ctrlKey: true, altKey: true })), undefined);
  assert.equal(historyStepOf(press('z', { ctrlKey: true, metaKey: true })), undefined);
  assert.equal(historyStepOf(press('y', { ctrlKey: true, shiftKey: true })), undefined);
  assert.equal(historyStepOf(press('x', { ctrlKey: true })), undefined);
});

test('in a text field the keys keep undoing the typing', () => {
  for (const field of [{ tagName: 'INPUT' }, { tagName: 'textarea' }, { tagName: 'VSCODE-TEXTFIELD' }, { tagName: 'VSCODE-SINGLE-SELECT' }, { tagName: 'DIV', isContentEditable: true }]) {
    assert.equal(historyStepOf(press('z', { ctrlKey: true }, [field, body])), undefined, JSON.stringify(field));
  }
  // The input inside a vscode-textfield's shadow root: the host element is on the path too.
  assert.equal(historyStepOf(press('z', { ctrlKey: true }, [{ tagName: 'INPUT' }, { tagName: 'VSCODE-TEXTFIELD' }, body])), undefined);
});
