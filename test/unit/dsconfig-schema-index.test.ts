import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SchemaIndex,
  acceptsAuto,
  aliasGroup,
  canonicalKey,
  defaultSnippetsOf,
  enumValuesOf,
  metaOf,
  propertiesOf,
  rootSchema,
  schemaForPath,
  typesOf,
  valueSchemaOf,
  type SchemaNode,
} from '../../server/src/dsconfig/schemaIndex';

// A small schema in the conventions of schemas/ds_config.schema.json, to pin down each resolution rule.
const small: SchemaNode = {
  type: 'object',
  definitions: {
    offload: { type: ['object', 'null'], properties: { device: { enum: ['none', 'cpu', 'nvme'] } }, additionalProperties: false },
    chain: { $ref: '#/definitions/offload' },
  },
  properties: {
    batch: { anyOf: [{ type: 'integer', minimum: 1 }, { const: 'auto' }], default: null, 'x-deepspeed': { auto: { by: 'hf', from: 'per_device_train_batch_size' } } },
    zero: {
      anyOf: [
        {
          type: 'object',
          properties: {
            offload_param: { $ref: '#/definitions/chain', markdownDescription: 'params to CPU' },
            stage3_prefetch_bucket_size: { type: 'integer' },
            prefetch_bucket_size: { type: 'integer', 'x-deepspeed': { aliasOf: 'stage3_prefetch_bucket_size' } },
          },
        },
        { type: 'boolean', deprecationMessage: 'legacy' },
      ],
    },
    opt: {
      type: 'object',
      properties: { type: { type: 'string' }, params: { type: 'object', properties: { lr: { type: 'number' } } } },
      allOf: [
        { if: { properties: { type: { pattern: '^(?:[aA]dam)$' } }, required: ['type'] }, then: { properties: { params: { properties: { betas: { type: 'array', items: { type: 'number' } } } } } } },
        { if: { properties: { type: { const: 'Lion' } }, required: ['type'] }, then: { properties: { params: { properties: { lion_only: { type: 'boolean' } } } } } },
      ],
    },
    loose: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

test('follows $ref chains and keeps the referring node\'s own keywords', () => {
  const index = new SchemaIndex(small);
  const node = index.schemaForPath(['zero', 'offload_param'])!;
  assert.deepEqual(node.type, ['object', 'null']);
  assert.equal(node.markdownDescription, 'params to CPU');
  assert.deepEqual(index.enumValuesOf(index.schemaForPath(['zero', 'offload_param', 'device'])!).map((e) => e.value), ['none', 'cpu', 'nvme']);
});

test('unwraps the "auto" alternative to the real branch and remembers that "auto" is accepted', () => {
  const index = new SchemaIndex(small);
  const batch = index.schemaForPath(['batch'])!;
  assert.equal(batch.type, 'integer');
  assert.equal(batch.minimum, 1);
  assert.equal(batch.default, null);
  assert.equal(acceptsAuto(batch), true);
  assert.equal(acceptsAuto(index.schemaForPath(['zero', 'offload_param'])!), false);
  assert.deepEqual(index.typesOf(batch), ['integer']);
});

test('descends through non-auto alternatives (the legacy boolean form of zero) and skips deprecated types', () => {
  const index = new SchemaIndex(small);
  const zero = index.schemaForPath(['zero'])!;
  assert.deepEqual(Object.keys(index.propertiesOf(zero)).sort(), ['offload_param', 'prefetch_bucket_size', 'stage3_prefetch_bucket_size']);
  assert.deepEqual(index.typesOf(zero), ['object']);
});

test('aliases map to their canonical key in both directions', () => {
  const index = new SchemaIndex(small);
  const zero = index.schemaForPath(['zero'])!;
  assert.deepEqual(index.aliasGroup(zero, 'prefetch_bucket_size'), ['stage3_prefetch_bucket_size', 'prefetch_bucket_size']);
  assert.deepEqual(index.aliasGroup(zero, 'stage3_prefetch_bucket_size'), ['stage3_prefetch_bucket_size', 'prefetch_bucket_size']);
  assert.equal(index.canonicalNames(zero).get('prefetch_bucket_size'), 'stage3_prefetch_bucket_size');
});

test('if/then picks the branch for the document\'s value, or offers all branches without one', () => {
  const index = new SchemaIndex(small);
  const keys = (value?: unknown) => Object.keys(index.propertiesOf(index.schemaForPath(['opt', 'params'], value)!)).sort();
  assert.deepEqual(keys({ opt: { type: 'adam' } }), ['betas', 'lr']);
  assert.deepEqual(keys({ opt: { type: 'Lion' } }), ['lion_only', 'lr']);
  assert.deepEqual(keys({ opt: { type: 'lion' } }), ['lr'], 'const is exact, unlike the case-insensitive pattern');
  assert.deepEqual(keys(), ['betas', 'lion_only', 'lr']);
  assert.deepEqual(index.schemaForPath(['opt', 'params', 'betas', 1], { opt: { type: 'Adam' } }), { type: 'number' });
});

test('a conditional node merges each selection of branches once, whatever the other values are', () => {
  const index = new SchemaIndex(small);
  const opt = index.schemaForPath(['opt'])!;
  const adam = index.propertiesOf(opt, { type: 'adam' });
  assert.equal(index.propertiesOf(opt, { type: 'Adam', params: { lr: 1 } }), adam, 'the same branches: the same merged properties');
  const lion = index.propertiesOf(opt, { type: 'Lion' });
  assert.notEqual(lion, adam);
  assert.deepEqual(Object.keys(index.propertiesOf(lion.params)).sort(), ['lion_only', 'lr']);
  assert.deepEqual(Object.keys(index.propertiesOf(adam.params)).sort(), ['betas', 'lr']);
  assert.equal(index.propertiesOf(opt, { type: 'adam' }), adam, 'switching back finds the first merge');
  assert.deepEqual(Object.keys(index.propertiesOf(index.propertiesOf(opt).params)).sort(), ['betas', 'lion_only', 'lr'], 'no value: every branch');
});

test('additionalProperties schemas answer for unknown keys; unknown paths answer undefined', () => {
  const index = new SchemaIndex(small);
  assert.deepEqual(index.schemaForPath(['loose', 'anything']), { type: 'string' });
  assert.equal(index.schemaForPath(['nope']), undefined);
  assert.equal(index.schemaForPath(['batch', 'deeper']), undefined);
});

test('a $ref cycle does not hang', () => {
  const index = new SchemaIndex({ definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } }, properties: { x: { $ref: '#/definitions/a' } } });
  assert.ok(index.schemaForPath(['x']));
});

test('the bundled schema: zero_optimization.stage is 0–3 with "auto" filled by accelerate', () => {
  const stage = schemaForPath(['zero_optimization', 'stage'])!;
  assert.deepEqual(enumValuesOf(stage).map((e) => e.value), [0, 1, 2, 3]);
  assert.ok(enumValuesOf(stage)[3].description?.includes('parameters'));
  assert.equal(acceptsAuto(stage), true);
  assert.equal(metaOf(stage).auto?.by, 'accelerate');
  assert.deepEqual(typesOf(stage), ['integer']);
  assert.equal(valueSchemaOf(stage).default, 0);
});

test('the bundled schema: aliases, section snippets, optimizer params by type', () => {
  assert.deepEqual(aliasGroup(['zero_optimization'], 'prefetch_bucket_size'), ['stage3_prefetch_bucket_size', 'prefetch_bucket_size']);
  assert.equal(canonicalKey(schemaForPath(['zero_optimization'])!, 'max_live_parameters'), 'stage3_max_live_parameters');
  const labels = defaultSnippetsOf(schemaForPath(['zero_optimization'])!).map((s) => s.label);
  for (const label of ['ZeRO-2', 'ZeRO-3', 'ZeRO-3 + CPU offload']) assert.ok(labels.includes(label), label);
  const adamParams = propertiesOf(schemaForPath(['optimizer', 'params'], { optimizer: { type: 'AdamW' } })!);
  assert.ok('adam_w_mode' in adamParams && 'lr' in adamParams);
  assert.ok(Object.keys(propertiesOf(rootSchema())).includes('train_micro_batch_size_per_gpu'));
});

test("a path's schema is kept per parsed value: the same version answers alike, a new one (another optimizer type) anew", () => {
  const adam = { optimizer: { type: 'AdamW', params: { lr: 1e-5 } } };
  const first = schemaForPath(['optimizer', 'params'], adam)!;
  assert.equal(schemaForPath(['optimizer', 'params'], adam), first);
  assert.ok('adam_w_mode' in propertiesOf(first));
  const lamb = { optimizer: { type: 'Lamb', params: { lr: 1e-5 } } };
  const other = schemaForPath(['optimizer', 'params'], lamb)!;
  assert.ok(!('adam_w_mode' in propertiesOf(other)) && 'max_coeff' in propertiesOf(other));
  // A path the schema does not know stays unknown on the second ask too.
  assert.equal(schemaForPath(['optimizer', 'nonsense', 'deeper'], adam), undefined);
  assert.equal(schemaForPath(['optimizer', 'nonsense', 'deeper'], adam), undefined);
});
