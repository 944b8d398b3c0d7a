// `npm run screenshots`: regenerates the README's pictures, docs/images/overview.webp and docs/images/sidebar.webp,
// in code-server the way the e2e suite drives it (scripts/e2e.mjs): packages the VSIX, installs it into a fresh
// profile, opens a temp copy of examples/ with the training context in the user settings, and screenshots.
// Runs through tsx (`node --import tsx`) to reuse the e2e helpers in test/e2e/support/.
import { cpSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { installExtension, startCodeServer } from './lib/codeServer.mjs';
import { e2eEditorSettings } from './lib/e2eSettings.mjs';
import { logger } from './lib/log.mjs';
import { chromiumPath, fromRoot } from './lib/paths.mjs';
import { profilePaths, seedUserSettings } from './lib/profile.mjs';
import { setup } from './lib/setup.mjs';
import { packageVsix } from './lib/vsix.mjs';
import { pngToWebp } from './lib/webp.mjs';
import { launchBrowser } from '../test/e2e/support/browser.ts';
import { webviewContent } from '../test/e2e/support/webview.ts';
import { Workbench } from '../test/e2e/support/workbench.ts';

const log = logger('screenshots');
process.env.ZL_E2E_CHROMIUM ??= chromiumPath;

/** The context of examples/.vscode/settings.json, as user settings (that file is left out so these apply). */
const context = (model) => ({
  'zeroLens.model': model,
  'zeroLens.gpusPerNode': 4,
  'zeroLens.nodes': 1,
  'zeroLens.gpuMemoryGiB': 80,
  'zeroLens.sequenceLength': 4096,
  'zeroLens.microBatchSize': 1,
  'zeroLens.gradientCheckpointing': true,
  'zeroLens.dtype': 'bf16',
});

const shots = [
  {
    // The stage hover table over a ZeRO-2 config, the inline estimate after "stage", and the sidebar.
    out: 'overview.webp',
    viewport: { width: 1600, height: 1000 },
    model: 'Qwen/Qwen3-8B',
    file: 'ds_config.json',
    async pose(wb) {
      await wb.editor.waitForText((text) => /"stage": 2\s*≈ [\d.]+ GiB\/GPU/.test(text), 'the inline estimate after "stage"');
      await wb.editor.hover('"stage"', (hover) => /ZeRO options for/.test(hover) && /Which ZeRO stage/.test(hover));
    },
  },
  {
    // The sidebar next to the ZeRO-2 example, with the tooltip of ZeRO-1's optimizer states. The workspace's
    // scripts/deepspeed_launcher_hf.sh launches this config, so it supplies the context: Llama-3.1-8B-Instruct,
    // micro-batch 2, gradient accumulation 8, sequence 4096, checkpointing, 4 GPUs.
    out: 'sidebar.webp',
    viewport: { width: 1000, height: 900 },
    model: 'meta-llama/Llama-3.1-8B',
    file: 'configs/ds_config_zero2.json',
    async pose(wb, view) {
      const segment = view.locator('[data-testid="zl-bar"][data-key="z1-opt-none-param-none"] [data-role="optimizerStates"]');
      await segment.hover();
      await view.locator('.zl-detail-visible', { hasText: 'Optimizer states:' }).waitFor({ state: 'visible' });
    },
  },
];

async function take(shot, { tmp, extensionsDir, browser }) {
  const name = path.basename(shot.out, '.webp');
  const profile = { ...profilePaths(path.join(tmp, `profile-${name}`)), extensionsDir };
  seedUserSettings(profile, { ...e2eEditorSettings, ...context(shot.model) });
  const workspace = path.join(tmp, name, 'examples');
  cpSync(fromRoot('examples'), workspace, { recursive: true });
  rmSync(path.join(workspace, '.vscode'), { recursive: true, force: true });
  if (shot.file === 'ds_config.json') copyFileSync(fromRoot('examples', 'configs', 'ds_config_zero2.json'), path.join(workspace, shot.file));

  const server = await startCodeServer({ ...profile, workspace });
  try {
    const wb = await Workbench.open(browser, { url: server.url, workspace });
    await wb.page.setViewportSize(shot.viewport);
    await wb.openFile(shot.file);
    await wb.waitForLanguageMode('DeepSpeed Config');
    await wb.openActivity('ZeRO Lens');
    const view = webviewContent(wb.page);
    await view.locator('[data-testid="zl-bar"][data-current="true"]').waitFor({ state: 'visible', timeout: 60_000 });
    if (await wb.page.locator('.notifications-toasts .notification-toast').count()) await wb.runCommand('Notifications: Clear All Notifications');
    await shot.pose(wb, view);
    // Let the hover finish fading in.
    await wb.page.waitForTimeout(500);
    const file = fromRoot('docs', 'images', shot.out);
    const png = await wb.page.screenshot();
    // Encoded in a blank page of the same browser: the workbench's content policy is not ours to rely on.
    const encoder = await browser.newPage();
    writeFileSync(file, await pngToWebp(encoder, png));
    await encoder.close();
    log.info(`wrote ${path.relative(fromRoot(), file)}`);
    await wb.close();
  } finally {
    await server.stop();
  }
}

let tmp;
let browser;
let status = 1;
try {
  await setup();
  tmp = mkdtempSync(path.join(tmpdir(), 'zero-lens-shots-'));
  const vsix = await log.step('production build + VSIX', () => packageVsix({ out: path.join(tmp, 'zero-lens.vsix') }));
  const extensionsDir = path.join(tmp, 'extensions');
  await log.step('code-server --install-extension', () => installExtension(vsix.path, { ...profilePaths(path.join(tmp, 'install')), extensionsDir }));
  browser = await launchBrowser();
  for (const shot of shots) await log.step(shot.out, () => take(shot, { tmp, extensionsDir, browser }));
  status = 0;
} catch (error) {
  console.error(`[screenshots] failed: ${error.stack ?? error.message}`);
} finally {
  await browser?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
process.exit(status);
