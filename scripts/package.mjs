// `npm run package`: production build, then a VSIX with only what runs (see .vscodeignore).
import * as path from 'node:path';
import { logger } from './lib/log.mjs';
import { repoRoot } from './lib/paths.mjs';
import { defaultVsixPath, packageVsix } from './lib/vsix.mjs';

const log = logger('package');
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : defaultVsixPath();
try {
  const vsix = await log.step('production build + vsce package', () => packageVsix({ out }));
  for (const file of vsix.files) log.info(`  ${file}`);
  log.info(`${path.relative(repoRoot, vsix.path) || vsix.path}: ${(vsix.bytes / 1024).toFixed(1)} KiB, ${vsix.files.length} files`);
} catch (error) {
  console.error(`[package] failed: ${error.message}`);
  process.exit(1);
}
