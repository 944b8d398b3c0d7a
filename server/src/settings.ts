import { joinList, resolveLocale, type Locale, type Translate } from './l10n';
/**
 * Settings, as the client reads them per resource (`zeroLens.*`, defined in protocol/settings.ts).
 * Never cached globally on the server: every request passes the settings of its document.
 */
import { settingDefinitions, settingProblem, type SettingName, type SettingProblem, type SettingValueOf } from './protocol/settings';

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
  /**
   * The editor's own JSON support checks documents of the `json` and `jsonc` languages (syntax, comments, trailing
   * commas, duplicate keys), so ZeRO Lens leaves those checks to it there: VS Code's client says so
   * (`initializationOptions.editorChecksJson`). Other editors often run no JSON server beside ours.
   */
  editorChecksJson: boolean;
};

const serverSettings = (Object.keys(settingDefinitions) as SettingName[]).filter(
  (name): name is ServerSettingName => !('languageClientOnly' in settingDefinitions[name]),
);

/**
 * The value at a dotted name in VS Code's nested form: `inlayHints.enabled` is `{ inlayHints: { enabled } }`; or
 * under the dotted name itself, as settings.json writes it and other editors pass on the table a user wrote.
 */
function valueAt(settings: unknown, name: string): unknown {
  if (name.includes('.') && settings !== null && typeof settings === 'object' && Object.hasOwn(settings, name)) return (settings as Record<string, unknown>)[name];
  let value = settings;
  for (const part of name.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/**
 * The settings a client sent (VS Code's nested object for the `zeroLens` section), each checked against its
 * definition: a missing or invalid value falls back to the default, so the core never sees a partial object
 * or a value of the wrong type or out of bounds.
 */
export function withDefaults(sent: unknown, displayLocale?: string, editorChecksJson = true): ZeroLensSettings {
  const settings: Record<string, unknown> = {};
  for (const name of serverSettings) {
    const definition = settingDefinitions[name];
    const value = valueAt(sent, name);
    if (value !== undefined && settingProblem(definition, value) === undefined) settings[name] = Array.isArray(value) ? [...value] : value;
    else if ('default' in definition) settings[name] = Array.isArray(definition.default) ? [...definition.default] : definition.default;
  }
  settings.locale = resolveLocale([settings.language as string | undefined], [displayLocale]);
  settings.editorChecksJson = editorChecksJson;
  return settings as ZeroLensSettings;
}

export const defaultSettings: ZeroLensSettings = withDefaults({});

/** A value a client sent for a setting that its definition refuses: `withDefaults` reads the default (or unset) instead. */
export interface IgnoredSetting {
  name: ServerSettingName;
  value: unknown;
  problem: SettingProblem;
}

/** The values `withDefaults` ignores in what a client sent; null is "unset" (package.json's default), never invalid. */
export function ignoredSettings(sent: unknown): IgnoredSetting[] {
  const ignored: IgnoredSetting[] = [];
  for (const name of serverSettings) {
    const value = valueAt(sent, name);
    if (value === undefined || value === null) continue;
    const problem = settingProblem(settingDefinitions[name], value);
    if (problem) ignored.push({ name, value, problem });
  }
  return ignored;
}

/** An ignored setting in the reader's language: its name, why, its value and what is used instead. */
export function describeIgnoredSetting(ignored: IgnoredSetting, t: Translate): string {
  const definition = settingDefinitions[ignored.name];
  const setting = `zeroLens.${ignored.name}`;
  const why = ((problem: SettingProblem): string => {
    switch (problem.kind) {
      case 'notNumber':
        return definition.type === 'integer' ? t('{0} must be a whole number', setting) : t('{0} must be a number', setting);
      case 'notInteger':
        return t('{0} must be a whole number', setting);
      case 'range':
        return problem.max === Infinity ? t('{0} must be at least {1}', setting, problem.min) : t('{0} must be between {1} and {2}', setting, problem.min, problem.max);
      case 'notBoolean':
        return t('{0} must be true or false', setting);
      case 'notAllowed':
        return t('{0} must be one of {1}', setting, joinList(t, problem.values));
      case 'notText':
        return t('{0} must be text', setting);
      case 'controlCharacters':
        return t('{0} contains control characters', setting);
      case 'tooLong':
        return t('{0} is longer than {1} characters', setting, problem.max);
      case 'pattern':
        return t('{0} must match {1}', setting, problem.pattern);
      case 'notList':
        return t('{0} must be a list of text', setting);
    }
  })(ignored.problem);
  const written = JSON.stringify(ignored.value) ?? String(ignored.value);
  const value = written.length > 40 ? `${written.slice(0, 39)}…` : written;
  const instead = 'default' in definition ? t('The default, {0}, is used instead.', JSON.stringify(definition.default)) : t('It is read as unset.');
  return t('ZeRO Lens ignores a setting: {0} (it is {1}). {2}', why, value, instead);
}
