import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { catalogPath, provenancePath, renderCatalog } from '../../scripts/catalog/build';
import { catalogEntries } from '../../server/src/memory';
import { decodeShape, encodeShape } from '../../server/src/memory/catalogCodec';
import type { ModelArchitecture } from '../../server/src/memory/types';

test('the committed catalog is what `npm run catalog` builds from the inputs, byte for byte, every time', () => {
  const first = renderCatalog();
  const second = renderCatalog();
  assert.equal(first.catalogText, second.catalogText);
  assert.equal(first.provenanceText, second.provenanceText);
  assert.equal(readFileSync(catalogPath, 'utf8'), first.catalogText, 'run npm run catalog');
  assert.equal(readFileSync(provenancePath, 'utf8'), first.provenanceText, 'run npm run catalog');
});

test('every entry names its source, and the shipped data fits the size budget', () => {
  const provenance = JSON.parse(readFileSync(provenancePath, 'utf8')) as { entries: Array<{ id: string; source: { url: string; licence: string; where: string } }> };
  const byId = new Map(provenance.entries.map((e) => [e.id, e]));
  for (const entry of catalogEntries()) {
    const p = byId.get(entry.id);
    assert.ok(p && p.source.url && p.source.licence && p.source.where, entry.id);
    assert.ok(entry.source.url && entry.source.licence, entry.id);
  }
  assert.ok(Buffer.byteLength(readFileSync(catalogPath)) <= 150 * 1024);
});

test('the compact shape codec gives every field back', () => {
  const everything: ModelArchitecture = {
    hiddenSize: 7,
    numLayers: 3,
    numHeads: 5,
    numKvHeads: 1,
    headDim: 11,
    intermediateSize: 13,
    vocabSize: 17,
    tiedEmbeddings: true,
    mlp: 'plain',
    qkvBias: true,
    oBias: true,
    linearBias: true,
    qkNorm: true,
    qkNormAllHeads: true,
    normsPerLayer: 4,
    norm: 'layer',
    lmHeadBias: true,
    positionEmbeddings: 19,
    moe: { numExperts: 8, expertsPerToken: 2, moeIntermediateSize: 23, sharedExpertIntermediateSize: 29, denseLayers: 1, sharedExpertGate: true, routerBias: true },
    mla: { qLoraRank: 31, kvLoraRank: 37, qkNopeHeadDim: 41, qkRopeHeadDim: 43, vHeadDim: 47 },
    linearAttention: { layers: 2, keyHeads: 2, valueHeads: 4, keyHeadDim: 53, valueHeadDim: 59, convKernel: 4 },
    attnOutputGate: true,
    fusedQkv: true,
    fusedGateUp: true,
    parts: [
      { kind: 'vision', name: 'vision tower', params: 61, largestLayer: 67 },
      { kind: 'mtp', name: 'mtp', params: 71, largestLayer: 73, loaded: false },
    ],
    dropout: true,
  };
  assert.deepEqual(decodeShape(encodeShape(everything)), everything);
  for (const entry of catalogEntries()) assert.deepEqual(decodeShape(encodeShape(entry.info.architecture!)), entry.info.architecture, entry.id);
});
