// User settings of the end-to-end profile: quiet (no welcome page, no toasts) and deterministic.
import { quietEditorSettings } from './profile.mjs';

export const e2eEditorSettings = {
  ...quietEditorSettings,
  'workbench.colorTheme': 'Default Dark Modern',
  'editor.minimap.enabled': false,
  'editor.hover.delay': 200,
  'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
  'editor.suggestOnTriggerCharacters': false,
  'files.autoSave': 'off',
  'git.enabled': false,
  'workbench.editor.enablePreview': false,
  'window.restoreWindows': 'none',
  'notifications.doNotDisturbMode': false,
};
