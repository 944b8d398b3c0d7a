// A minimal Simplified Chinese language pack for the e2e run, built here because nothing can come from a
// marketplace: VS Code takes a display language only when an installed extension declares it in
// `contributes.localizations`. Its translations of VS Code's own UI are empty (the workbench stays English); what
// it gives is the display language itself, so `vscode.env.language` is zh-cn and VS Code loads ZeRO Lens's
// package.nls.zh-cn.json and dist/l10n/bundle.l10n.zh-cn.json.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cacheDir, repoRoot } from './paths.mjs';
import { run } from './run.mjs';

const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');

export const languagePackId = 'zero-lens-e2e.zh-cn-language-pack';

/** Writes the pack's folder and packs it; returns the VSIX path. */
export async function buildLanguagePack({ out = path.join(cacheDir, 'vsix', 'zh-cn-language-pack.vsix') } = {}) {
  const folder = path.join(cacheDir, 'zh-cn-language-pack');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(path.join(folder, 'translations'), { recursive: true });
  const manifest = {
    name: 'zh-cn-language-pack',
    publisher: 'zero-lens-e2e',
    displayName: 'Chinese (Simplified) display language for the ZeRO Lens e2e',
    description: 'Declares zh-cn as a display language; VS Code’s own strings stay English.',
    version: '1.0.0',
    license: 'MIT',
    engines: { vscode: '^1.91.0' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        {
          languageId: 'zh-cn',
          languageName: 'Chinese Simplified',
          localizedLanguageName: '中文(简体)',
          translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
        },
      ],
    },
  };
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(path.join(folder, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }) + '\n');
  writeFileSync(path.join(folder, 'README.md'), '# zh-cn display language for the ZeRO Lens end-to-end tests\n');
  writeFileSync(path.join(folder, 'LICENSE'), 'MIT\n');
  mkdirSync(path.dirname(out), { recursive: true });
  await run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--out', out], { cwd: folder });
  return { path: out, bytes: statSync(out).size };
}

/**
 * Records the installed pack in the profile's languagepacks.json, as VS Code's language-pack service does when it
 * installs one itself: the server reads that file to resolve a display language, and `--install-extension` in a
 * separate process does not write it.
 */
export function registerLanguagePack({ userDataDir, extensionsDir }) {
  const folder = readdirSync(extensionsDir).find((name) => name.toLowerCase().startsWith(`${languagePackId}-`));
  if (!folder) throw new Error(`${languagePackId} is not installed in ${extensionsDir}`);
  const manifest = JSON.parse(readFileSync(path.join(extensionsDir, folder, 'package.json'), 'utf8'));
  const extensions = [{ extensionIdentifier: { id: languagePackId }, version: manifest.version }];
  const hash = createHash('md5');
  for (const extension of extensions) hash.update(extension.extensionIdentifier.id).update(extension.version);
  const packs = {};
  for (const localization of manifest.contributes.localizations) {
    packs[localization.languageId] = {
      hash: hash.copy().digest('hex'),
      extensions,
      translations: Object.fromEntries(localization.translations.map((t) => [t.id, path.join(extensionsDir, folder, t.path)])),
      label: localization.localizedLanguageName ?? localization.languageName,
    };
  }
  writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}
