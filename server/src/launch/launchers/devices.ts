import type { CommandEnvironment, VariableBinding } from '../shell/variables';

/** GPU ids listed in CUDA_VISIBLE_DEVICES (or the Ascend equivalent) as the command sees it. */
export function visibleDevices(env: CommandEnvironment): { ids: string[]; binding: VariableBinding; name: string } | undefined {
  for (const name of ['CUDA_VISIBLE_DEVICES', 'ASCEND_RT_VISIBLE_DEVICES']) {
    const binding = env.envBinding(name);
    if (!binding || binding.value === undefined) continue;
    const ids = binding.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    return { ids, binding, name };
  }
  return undefined;
}
