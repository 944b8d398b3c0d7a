import type { CommandEnvironment, VariableBinding } from '../shell/variables';

/** The variables that pick the GPUs a process sees (CUDA, then Ascend NPUs). */
export const visibleDeviceVariables = ['CUDA_VISIBLE_DEVICES', 'ASCEND_RT_VISIBLE_DEVICES'] as const;

/** Device ids in a CUDA_VISIBLE_DEVICES-style list. */
export function deviceIds(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** GPU ids listed in CUDA_VISIBLE_DEVICES (or the Ascend equivalent) as the command sees it. */
export function visibleDevices(env: CommandEnvironment): { ids: string[]; binding: VariableBinding; name: string } | undefined {
  for (const name of visibleDeviceVariables) {
    const binding = env.envBinding(name);
    if (!binding || binding.value === undefined) continue;
    return { ids: deviceIds(binding.value), binding, name };
  }
  return undefined;
}
