// The private code-server profiles used by `npm start` and the end-to-end tests.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { writeUserSettings } from './codeServer.mjs';

/** Settings that keep the first screen about the files: no welcome page, no recommendation toasts. */
export const quietEditorSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'chat.commandCenter.enabled': false,
  'workbench.colorTheme': 'Default Dark Modern',
};

export function profilePaths(root) {
  return {
    root,
    userDataDir: path.join(root, 'user-data'),
    extensionsDir: path.join(root, 'extensions'),
    configDir: root,
  };
}

/** Seeds User/settings.json once; a user's later changes in the editor are kept. */
export function seedUserSettings(profile, extra = {}) {
  const file = path.join(profile.userDataDir, 'User', 'settings.json');
  if (existsSync(file)) return false;
  writeUserSettings(profile.userDataDir, { ...quietEditorSettings, ...extra });
  return true;
}
