import type { DiagnosticData, FixOp, FixSpec } from './fixData';
import { isFixKind } from './fixKinds';

/**
 * The one reader of `Diagnostic.data`. Data comes back from the client and may be anything (another
 * tool's, an older build's, hand-made), so every field is checked before use: data without a valid origin
 * is ignored, and so is each fix with a malformed op. What it returns is built afresh, never the input.
 */
export function readDiagnosticData(value: unknown): DiagnosticData | undefined {
  if (!isRecord(value) || !isCount(value.version) || !isCount(value.textLength) || !Array.isArray(value.fixes)) return undefined;
  const fixes = value.fixes.map(readFix).filter((f): f is FixSpec => f !== undefined);
  return { ...value, version: value.version, textLength: value.textLength, fixes };
}

function readFix(value: unknown): FixSpec | undefined {
  if (!isRecord(value) || !isFixKind(value.id) || typeof value.title !== 'string' || !Array.isArray(value.ops) || value.ops.length === 0) return undefined;
  if (value.preferred !== undefined && typeof value.preferred !== 'boolean') return undefined;
  const ops: FixOp[] = [];
  for (const raw of value.ops) {
    const op = readOp(raw);
    if (!op) return undefined;
    ops.push(op);
  }
  const fix: FixSpec = { id: value.id, title: value.title, ops };
  if (value.preferred) fix.preferred = true;
  return fix;
}

function readOp(value: unknown): FixOp | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.op) {
    case 'replaceText': {
      const { start, end, expect, newText } = value;
      return isCount(start) && isCount(end) && start <= end && typeof expect === 'string' && expect.length === end - start && typeof newText === 'string'
        ? { op: 'replaceText', start, end, expect, newText }
        : undefined;
    }
    case 'deleteText': {
      const { offset, length, expect } = value;
      return isCount(offset) && isCount(length) && typeof expect === 'string' && expect.length === length ? { op: 'deleteText', offset, length, expect } : undefined;
    }
    case 'set':
      if (!isPath(value.path) || value.value === undefined || (value.placeholder !== undefined && !(value.placeholder === true && typeof value.value === 'string'))) return undefined;
      return value.placeholder ? { op: 'set', path: value.path, value: value.value, placeholder: true } : { op: 'set', path: value.path, value: value.value };
    case 'remove': {
      const flag = (v: unknown) => v === undefined || typeof v === 'boolean';
      if (!isPath(value.path) || !flag(value.withLineComment) || !flag(value.all)) return undefined;
      return { op: 'remove', path: value.path, ...(value.withLineComment ? { withLineComment: true } : {}), ...(value.all ? { all: true } : {}) };
    }
    case 'rename':
      return isPath(value.path) && typeof value.newKey === 'string' ? { op: 'rename', path: value.path, newKey: value.newKey } : undefined;
    default:
      return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isPath(value: unknown): value is (string | number)[] {
  return Array.isArray(value) && value.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isSafeInteger(s) && s >= 0));
}
