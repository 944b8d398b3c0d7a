import { resolveLocale, type Locale } from './l10n';
/**
 * Settings, as the client reads them per resource (`zeroLens.*`, defined in protocol/settings.ts).
 * Never cached globally on the server: every request passes the settings of its document.
 */
import { settingDefinitions, settingProblem, type SettingName, type SettingValueOf } from './protocol/settings';

type Definitions = typeof settingDefinitions;
/** The settings the server reads: all but those vscode-languageclient reads itself. */
type ServerSettingName = { [N in SettingName]: Definitions[N] extends { languageClientOnly: true } ? never : N }[SettingName];
type WithDefault = { [N in ServerSettingName]: Definitions[N] extends { default: unknown } ? N : never }[ServerSettingName];

/**
 * Each setting by its name under `zeroLens.` (`settings['inlayHints.enabled']`), always a valid value of it:
 * one with a default always has a value, one without is absent when nobody set it.
 */
export type ZeroLensSettings = { [N in WithDefault]: SettingValueOf<Definitions[N]> } & {
  [N in Exclude<ServerSettingName, WithDefault>]?: SettingValueOf<Definitions[N]>;
} & {
  /**
   * The language every text of a request is written in: `language` unless it is `auto`, else the display
   * language the edge passed to `withDefaults` (the editor's `InitializeParams.locale`, the CLI's environment).
   */
  locale: Locale;
};

const serverSettings = (Object.keys(settingDefinitions) as SettingName[]).filter(
  (name): name is ServerSettingName => !('languageClientOnly' in settingDefinitions[name]),
);

/** The value at a dotted name in VS Code's nested form: `inlayHints.enabled` is `{ inlayHints: { enabled } }`. */
function valueAt(settings: unknown, name: string): unknown {
  let value = settings;
  for (const part of name.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/**
 * The settings a client sent (VS Code's nested object for the `zeroLens` section), each checked against its
 * definition: a missing or invalid value falls back to the default, so the core never sees a partial object
 * or a value of the wrong type or out of bounds.
 */
export function withDefaults(sent: unknown, displayLocale?: string): ZeroLensSettings {
  const settings: Record<string, unknown> = {};
  for (const name of serverSettings) {
    const definition = settingDefinitions[name];
    const value = valueAt(sent, name);
    if (value !== undefined && settingProblem(definition, value) === undefined) settings[name] = Array.isArray(value) ? [...value] : value;
    else if ('default' in definition) settings[name] = Array.isArray(definition.default) ? [...definition.default] : definition.default;
  }
  settings.locale = resolveLocale([settings.language as string | undefined], [displayLocale]);
  return settings as ZeroLensSettings;
}

export const defaultSettings: ZeroLensSettings = withDefaults({});
