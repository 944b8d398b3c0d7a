// Child processes that fail loudly: a failed install step must stop setup with the command's own output.
import { spawn, spawnSync } from 'node:child_process';

/**
 * Runs a command to completion. Output is captured and shown only on failure (quiet = true),
 * or streamed to the terminal (quiet = false).
 */
export function run(command, args, { cwd, env, quiet = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(output);
      const where = cwd ? ` (in ${cwd})` : '';
      const tail = output.split('\n').slice(-40).join('\n');
      reject(new Error(`${command} ${args.join(' ')}${where} failed with ${signal ?? `exit code ${code}`}\n${tail}`));
    });
  });
}

/** True when `command` is on PATH. */
export function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
