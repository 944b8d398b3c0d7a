/**
 * One estimate everywhere, in real VS Code: for a script of each launcher (and a config), the inline hint, the
 * sidebar's current bar, the language status and `zero-lens estimate <file>` in the same workspace show the same
 * per-GPU total. The protocol test (test/protocol/parity.test.ts) checks every fixture this way; here one case
 * per launcher goes through what the user sees.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { formatGiB } from '../../server/src/protocol';
import { runCli } from '../unit/cli-helpers';
import { placeFile } from './support/files';
import { uiSuite } from './support/suite';
import { webviewContent } from './support/webview';
import type { Workbench } from './support/workbench';

const fixture = (name: string) => `fixture:parity/${name}`;

/** A launch file, the files it names, and the line its estimate sits on. */
const cases: { launcher: string; file: string; others: string[]; anchor: RegExp }[] = [
  { launcher: 'ms-swift (--deepspeed preset)', file: 'parity_swift.sh', others: [], anchor: /--deepspeed zero3/ },
  { launcher: 'ms-swift (arguments in a YAML)', file: 'parity_swift_yaml.sh', others: ['parity_swift_sft.yaml'], anchor: /swift sft parity_swift_sft\.yaml/ },
  { launcher: 'accelerate (--config_file)', file: 'parity_accelerate.sh', others: ['parity_accelerate.yaml'], anchor: /--config_file parity_accelerate\.yaml/ },
  { launcher: 'deepspeed launcher', file: 'parity_deepspeed.sh', others: ['ds_config_parity_z2.json'], anchor: /--deepspeed ds_config_parity_z2\.json/ },
  { launcher: 'torchrun', file: 'parity_torchrun.sh', others: ['ds_config_parity_z3.json'], anchor: /--deepspeed ds_config_parity_z3\.json/ },
  { launcher: 'llamafactory-cli (deepspeed: in its YAML)', file: 'parity_llamafactory.sh', others: ['parity_llamafactory.yaml', 'ds_config_parity_z3.json'], anchor: /llamafactory-cli train parity_llamafactory\.yaml/ },
  { launcher: 'a ds_config used by a workspace script', file: 'ds_config_parity_z2.json', others: ['parity_deepspeed.sh'], anchor: /"stage"/ },
];

/** "≈ 19.2 GiB/GPU …" → "19.2 GiB"; "ZeRO-2: 19.2 GiB per GPU, …" → "19.2 GiB". */
function sizeIn(text: string): string | undefined {
  return /≈ ([\d.,]+ GiB)\/GPU/.exec(text)?.[1] ?? /: ([\d.,]+ GiB) per GPU/.exec(text)?.[1];
}

async function hintSize(wb: Workbench, anchor: RegExp): Promise<string | undefined> {
  const text = await wb.editor.waitForText((t) => t.split('\n').some((l) => anchor.test(l) && /GiB\/GPU/.test(l)), 'the estimate hint on its line');
  return sizeIn(text.split('\n').find((l) => anchor.test(l) && /GiB\/GPU/.test(l))!);
}

async function sidebarSize(wb: Workbench, file: string): Promise<string | undefined> {
  await wb.openActivity('ZeRO Lens');
  // The sidebar follows the editor a moment after it switches: read it once it shows this file, not the last one.
  await webviewContent(wb.page).locator('.zl-file strong', { hasText: file }).waitFor({ state: 'visible', timeout: 30_000 });
  const current = webviewContent(wb.page).locator('[data-testid="zl-bar"][data-current="true"]');
  await current.first().waitFor({ state: 'visible', timeout: 30_000 });
  return sizeIn((await current.first().getAttribute('aria-label')) ?? '');
}

async function statusSize(wb: Workbench): Promise<string | undefined> {
  await wb.closeSidebar();
  await wb.page.locator('[id="status.languageStatus"]').click();
  const popup = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: /GiB\/GPU/ });
  await popup.waitFor({ state: 'visible' });
  const text = await popup.innerText();
  await wb.page.keyboard.press('Escape');
  return sizeIn(text);
}

uiSuite('one estimate everywhere', (suite) => {
  for (const c of cases) {
    suite.test(`${c.launcher}: the hint, the sidebar, the language status and zero-lens estimate agree`, async (wb) => {
      const workspace = wb.instance.workspace;
      const file = placeFile(workspace, fixture(c.file), c.file);
      for (const other of c.others) placeFile(workspace, fixture(other), other);
      await wb.openFile(c.file);
      const hint = await hintSize(wb, c.anchor);
      const sidebar = await sidebarSize(wb, c.file);
      const status = await statusSize(wb);
      const cli = await runCli(['estimate', path.relative(workspace, file), '--format', 'json'], workspace);
      assert.equal(cli.code, 0, cli.err);
      const total = formatGiB(JSON.parse(cli.out).perGpu.total);
      assert.ok(hint, 'the hint shows a size');
      assert.deepEqual({ hint, sidebar, status }, { hint: total, sidebar: total, status: total }, `${c.launcher}: every surface says ${total}`);
    });
  }
});
