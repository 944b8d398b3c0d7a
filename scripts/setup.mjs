// `npm run setup`: installs what the real-editor tests and `npm start` need (cached; a second run is instant).
// Node builtins only, since it runs before node_modules exists.
import { setup } from './lib/setup.mjs';

try {
  await setup();
} catch (error) {
  console.error(`[setup] failed: ${error.message}`);
  process.exit(1);
}
