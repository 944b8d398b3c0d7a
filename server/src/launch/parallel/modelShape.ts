/**
 * What the parallel sizes must divide: a catalog model's attention heads, key-value heads, layers and experts,
 * found by its id, alias or the folder it is named after (the estimates look models up the same way).
 */
import { findCatalogModel, findCatalogModelByPath } from '../../memory/catalog';

export interface ModelShape {
  id: string;
  heads: number;
  /** Megatron's query groups (grouped-query attention); equal to `heads` for multi-head and latent attention. */
  kvHeads: number;
  layers: number;
  experts?: number;
}

export function modelShape(model: string): ModelShape | undefined {
  const info = findCatalogModel(model) ?? findCatalogModelByPath(model);
  const a = info?.architecture;
  if (!info || !a || !(a.numHeads > 0) || !(a.numLayers > 0)) return undefined;
  const shape: ModelShape = { id: info.id, heads: a.numHeads, kvHeads: a.mla ? a.numHeads : a.numKvHeads || a.numHeads, layers: a.numLayers };
  if (a.moe) shape.experts = a.moe.numExperts;
  return shape;
}
