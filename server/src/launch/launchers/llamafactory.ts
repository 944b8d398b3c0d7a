import type { LaunchFacts } from '../facts';
import type { TrainerPart } from '../command/launchCommand';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import type { Word } from '../shell/types';
import { classifyDeepSpeedValue } from '../deepspeedValue';
import { visibleDevices } from './devices';

/** `llamafactory-cli train config.yaml key=value …` (OmegaConf dotlist overrides, not `--key value`). */
export function llamaFactoryTrainer(subcommandWord: Word | undefined, args: Word[]): TrainerPart {
  return {
    kind: 'llamafactory',
    subcommand: subcommandWord?.value,
    subcommandWord,
    args,
    parsed: { options: [], positionals: args, restIndex: args.length },
    envAfter: [],
  };
}

export function readLlamaFactoryFacts(ctx: SourceContext, env: CommandEnvironment, trainer: TrainerPart, facts: LaunchFacts): void {
  const config = trainer.args.find((w) => /\.(ya?ml|json)$/i.test(w.value));
  const configText = config && env.resolve(config);
  if (config && configText) {
    facts.configFile = { ...ctx.fact(configText, config.start, config.end, 'llamafactory-cli train'), candidates: ctx.candidates(configText) };
  }
  for (const word of trainer.args) {
    const m = /^([A-Za-z_][\w.]*)=(.*)$/s.exec(word.value);
    if (!m) continue;
    const valueStart = word.start + word.raw.indexOf('=') + 1;
    const resolved = env.resolve(word);
    const value = resolved?.slice(resolved.indexOf('=') + 1);
    if (m[1] === 'deepspeed') {
      const ref = classifyDeepSpeedValue(ctx, m[2], value, valueStart, word.end, 'deepspeed=');
      facts.deepspeed = ref.kind === 'unknown' ? { ...ref, kind: 'file', path: ref.text, candidates: ctx.candidates(ref.text) } : ref;
    }
  }
  // LLaMA-Factory starts torchrun itself when several devices are visible.
  const nproc = env.envBinding('NPROC_PER_NODE');
  const devices = visibleDevices(env);
  const n = Number(nproc?.value);
  if (nproc && Number.isInteger(n) && n > 0) facts.gpusPerNode = ctx.fact(n, nproc.assignment.start, nproc.assignment.end, 'NPROC_PER_NODE');
  else if (devices && devices.ids.length > 0) facts.gpusPerNode = ctx.fact(devices.ids.length, devices.binding.assignment.start, devices.binding.assignment.end, devices.name);
  const nnodes = env.envBinding('NNODES');
  const nn = Number(nnodes?.value);
  if (nnodes && Number.isInteger(nn) && nn > 0) facts.nodes = ctx.fact(nn, nnodes.assignment.start, nnodes.assignment.end, 'NNODES');
}
