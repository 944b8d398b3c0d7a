/**
 * A ZeRO option: a stage with its offload choices. Shared by the server, the client and the CLI, so that
 * what a stage reads is decided in one place.
 */
import { english, type Translate } from './l10n';

export type ZeroStage = 0 | 1 | 2 | 3;
export type OffloadDevice = 'none' | 'cpu' | 'nvme';

export interface ZeroOption {
  stage: ZeroStage;
  offloadOptimizer: OffloadDevice;
  offloadParam: OffloadDevice;
}

/**
 * What DeepSpeed runs for an option as written: stage 0 has no ZeRO optimizer to offload, and only
 * stage 3 offloads parameters, so offload settings a stage does not read are "none".
 */
export function normalizeOption(option: ZeroOption): ZeroOption {
  return {
    stage: option.stage,
    offloadOptimizer: option.stage === 0 ? 'none' : option.offloadOptimizer,
    offloadParam: option.stage === 3 ? option.offloadParam : 'none',
  };
}

/** Whether two options run the same way (offload a stage ignores does not count). */
export function sameOption(a: ZeroOption, b: ZeroOption): boolean {
  const x = normalizeOption(a);
  const y = normalizeOption(b);
  return x.stage === y.stage && x.offloadOptimizer === y.offloadOptimizer && x.offloadParam === y.offloadParam;
}

/**
 * "ZeRO-3 + CPU offload (optimizer, params)": one label for hints, hovers, fixes, the sidebar and the CLI, in the
 * reader's language (`t`; English by default).
 */
export function optionLabel(option: ZeroOption, t: Translate = english): string {
  const { stage, offloadOptimizer, offloadParam } = normalizeOption(option);
  if (offloadOptimizer === 'none' && offloadParam === 'none') return `ZeRO-${stage}`;
  const deviceName = (device: OffloadDevice) => (device === 'nvme' ? 'NVMe' : 'CPU');
  // ZeRO-Infinity's usual split (optimizer on CPU, parameters on NVMe) names each device.
  if (offloadOptimizer !== 'none' && offloadParam !== 'none' && offloadOptimizer !== offloadParam) {
    return t('ZeRO-{0} + offload (optimizer to {1}, params to {2})', stage, deviceName(offloadOptimizer), deviceName(offloadParam));
  }
  const device = offloadOptimizer === 'nvme' || offloadParam === 'nvme' ? 'NVMe' : 'CPU';
  const moved =
    offloadOptimizer !== 'none' && offloadParam !== 'none'
      ? t('optimizer, params')
      : offloadOptimizer !== 'none'
        ? t({ message: 'optimizer', comment: 'what a ZeRO option offloads' })
        : t({ message: 'params', comment: 'what a ZeRO option offloads' });
  return t('ZeRO-{0} + {1} offload ({2})', stage, device, moved);
}

const offloadDevices: readonly unknown[] = ['none', 'cpu', 'nvme'];

/** An option that arrived off the wire (any client may send one), checked; undefined when it is not one. */
export function readOption(value: unknown): ZeroOption | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { stage, offloadOptimizer, offloadParam } = value as Record<string, unknown>;
  if (stage !== 0 && stage !== 1 && stage !== 2 && stage !== 3) return undefined;
  const optimizer = stage === 0 ? 'none' : offloadOptimizer;
  const param = stage === 3 ? offloadParam : 'none';
  if (!offloadDevices.includes(optimizer) || !offloadDevices.includes(param)) return undefined;
  return { stage, offloadOptimizer: optimizer as OffloadDevice, offloadParam: param as OffloadDevice };
}
