/**
 * The training-context form: each input shows the value the estimate uses and where it came from,
 * and writes a workspace setting on change. Built once; updates never overwrite the focused input.
 */
import {
  formatCount,
  formatMessage,
  GPU_PRESETS,
  parseSettingValue,
  SETTING_SPECS,
  settingProblemArgs,
  type CatalogEntry,
  type ContextRowVM,
  type SettingKey,
  type SettingValue,
  type SidebarViewModel,
  type WebviewStrings,
} from '../messages';
import { searchCatalog } from './catalogSearch';
import { h } from './dom';

export interface FormHandlers {
  setSetting(key: SettingKey, value: SettingValue | null): void;
  pickModelFolder(): void;
  openSettings(): void;
}

/** The parts of @vscode-elements controls this form touches. */
interface ValueControl extends HTMLElement {
  value: string;
  invalid?: boolean;
  checked?: boolean;
}

interface Field {
  control: ValueControl;
  source: HTMLElement;
  error: HTMLElement;
}

const NUMBER_KEYS = ['gpusPerNode', 'nodes', 'gpuMemoryGiB', 'sequenceLength', 'microBatchSize', 'loraRank'] as const;

export class ContextForm {
  readonly element: HTMLElement;
  private readonly fields = new Map<SettingKey, Field>();
  private readonly modelSlot: HTMLElement;
  private catalog: CatalogEntry[] = [];
  private lastModel: string | null = null;

  constructor(
    private readonly strings: WebviewStrings,
    private readonly handlers: FormHandlers,
  ) {
    this.modelSlot = h('div', { class: 'zl-model-slot' });
    const folder = h('vscode-button', { secondary: true, icon: 'folder-opened', 'aria-label': strings.useFolder, title: strings.useFolder }, [strings.folderButton]);
    folder.addEventListener('click', () => handlers.pickModelFolder());
    const settings = h('vscode-button', { secondary: true, icon: 'settings-gear', 'aria-label': strings.openSettings }, [strings.allSettings]);
    settings.addEventListener('click', () => handlers.openSettings());

    this.element = h('form', { class: 'zl-form', 'aria-label': strings.trainingContext, novalidate: true }, [
      this.field('model', h('div', { class: 'zl-row' }, [this.modelSlot, folder])),
      ...NUMBER_KEYS.map((key) => this.field(key, key === 'gpuMemoryGiB' ? this.gpuMemory() : this.numberInput(key))),
      this.field('gradientCheckpointing', this.checkbox()),
      this.field('dtype', this.dtypeSelect()),
      h('div', { class: 'zl-form-actions' }, [settings]),
    ]);
    this.element.addEventListener('submit', (event) => event.preventDefault());
    this.renderModelControl(null, true);
  }

  update(vm: SidebarViewModel, settings: Partial<Record<SettingKey, SettingValue>>): void {
    const rows = new Map(vm.context.map((row) => [row.key, row]));
    for (const [key, field] of this.fields) {
      const row = rows.get(key);
      const value = row && row.raw !== null ? row.raw : (settings[key] ?? null);
      if (key === 'model') this.renderModelControl(value === null ? null : String(value));
      else if (document.activeElement !== field.control) setControlValue(field.control, value);
      field.source.textContent = sourceText(row, settings[key] !== undefined, this.strings);
      field.source.classList.toggle('zl-source-locked', !!row && !row.settable);
    }
  }

  setCatalog(entries: CatalogEntry[]): void {
    this.catalog = entries;
    // Never swap the control under someone typing in it: the catalog search comes once they leave it.
    const control = this.fields.get('model')?.control;
    if (control && document.activeElement === control) {
      control.addEventListener('blur', () => this.renderModelControl(this.lastModel, true), { once: true });
      return;
    }
    this.renderModelControl(this.lastModel, true);
  }

  private field(key: SettingKey, control: HTMLElement): HTMLElement {
    const source = h('div', { class: 'zl-source', id: `zl-src-${key}` });
    const error = h('div', { class: 'zl-error', id: `zl-err-${key}`, role: 'alert' });
    const input = control.matches('[data-setting]') ? control : control.querySelector<HTMLElement>('[data-setting]');
    if (input) this.fields.set(key, { control: input as ValueControl, source, error });
    else this.fields.set(key, { control: control as ValueControl, source, error });
    return h('div', { class: 'zl-field', 'data-field': key }, [
      h('vscode-label', { for: `zl-in-${key}` }, [this.strings.labels[key]]),
      control,
      source,
      error,
    ]);
  }

  private numberInput(key: (typeof NUMBER_KEYS)[number]): HTMLElement {
    const spec = SETTING_SPECS[key];
    const input = h('vscode-textfield', {
      id: `zl-in-${key}`,
      'data-setting': key,
      type: 'number',
      min: spec.kind === 'number' ? spec.min : null,
      max: spec.kind === 'number' ? spec.max : null,
      step: spec.kind === 'number' && !spec.integer ? 'any' : 1,
      placeholder: key === 'loraRank' ? this.strings.loraPlaceholder : this.strings.notSet,
      'aria-describedby': `zl-src-${key} zl-err-${key}`,
    }) as ValueControl;
    input.addEventListener('change', () => {
      const text = input.value.trim();
      this.submit(key, text === '' ? null : Number(text));
    });
    return input;
  }

  private gpuMemory(): HTMLElement {
    const input = this.numberInput('gpuMemoryGiB');
    const presets = h('vscode-single-select', { 'aria-label': this.strings.gpuPresets, class: 'zl-presets' }, [
      h('vscode-option', { value: '' }, [this.strings.preset]),
      ...GPU_PRESETS.map((preset) => h('vscode-option', { value: String(preset.gib), description: `${preset.gib} GiB` }, [preset.label])),
    ]) as ValueControl;
    presets.addEventListener('change', () => {
      if (!presets.value) return;
      this.submit('gpuMemoryGiB', Number(presets.value));
      presets.value = '';
    });
    return h('div', { class: 'zl-row' }, [input, presets]);
  }

  private checkbox(): HTMLElement {
    const box = h('vscode-checkbox', {
      id: 'zl-in-gradientCheckpointing',
      'data-setting': 'gradientCheckpointing',
      label: this.strings.recompute,
      'aria-describedby': 'zl-src-gradientCheckpointing',
    }) as ValueControl;
    box.addEventListener('change', () => this.submit('gradientCheckpointing', !!box.checked));
    return box;
  }

  private dtypeSelect(): HTMLElement {
    const spec = SETTING_SPECS.dtype;
    const values = spec.kind === 'enum' ? spec.values : [];
    const select = h('vscode-single-select', { id: 'zl-in-dtype', 'data-setting': 'dtype', 'aria-describedby': 'zl-src-dtype' }, [
      h('vscode-option', { value: '' }, [this.strings.notSet]),
      ...values.map((value) => h('vscode-option', { value }, [value])),
    ]) as ValueControl;
    select.addEventListener('change', () => this.submit('dtype', select.value || null));
    return select;
  }

  /** Catalog search when the server has a catalog; free text (hub id or path) otherwise. */
  private renderModelControl(value: string | null, force = false): void {
    const field = this.fields.get('model');
    if (!force && field && value === this.lastModel && field.control.isConnected) return;
    if (field && document.activeElement === field.control && !force) return;
    this.lastModel = value;
    let control: ValueControl;
    if (this.catalog.length) {
      const select = h('vscode-single-select', { id: 'zl-in-model', 'data-setting': 'model', combobox: true, creatable: true, filter: 'contains', 'aria-describedby': 'zl-src-model zl-err-model' }, this.modelOptions(value, '')) as ValueControl;
      control = select;
      // The select filters its options by label; relabel them by what the query matches (an alias, a
      // ModelScope id) so that every match stays visible.
      select.addEventListener('input', (event) => {
        const input = event.composedPath()[0] as HTMLInputElement | undefined;
        if (input && typeof input.value === 'string') select.replaceChildren(...this.modelOptions(this.lastModel, input.value));
      });
      // Only a confirmed value is written. The combobox reports "" when Enter follows typing that matches no
      // option (it selects nothing), which would have removed the setting: an empty value is never written.
      select.addEventListener('change', () => {
        if (select.value) this.submit('model', select.value);
      });
      select.addEventListener('vsc-single-select-create-option', (event) => {
        const detail = (event as CustomEvent<{ value?: unknown }>).detail;
        if (typeof detail?.value === 'string' && detail.value.trim()) this.submit('model', detail.value);
      });
      // Enter on typed text takes the text: the catalog entry it names (by id or by name), else the text as a
      // hub id or folder. Handled before the combobox sees the key, which would select nothing; an option the
      // arrow keys picked (or its "Add …" line) is still the combobox's to take.
      select.addEventListener(
        'keydown',
        (event) => {
          if ((event as KeyboardEvent).key !== 'Enter') return;
          const typed = select.shadowRoot?.querySelector<HTMLInputElement>('input')?.value.trim() ?? '';
          if (!typed || typed === this.catalogLabel(select.value) || select.shadowRoot?.querySelector('li.option.active')) return;
          event.stopPropagation();
          event.preventDefault();
          const entry = this.catalog.find((e) => e.id.toLowerCase() === typed.toLowerCase() || this.catalogLabel(e.id).toLowerCase() === typed.toLowerCase());
          this.submit('model', entry?.id ?? typed);
          (select as unknown as { open: boolean }).open = false;
        },
        { capture: true },
      );
    } else {
      control = h('vscode-textfield', { id: 'zl-in-model', 'data-setting': 'model', placeholder: this.strings.modelPlaceholder, 'aria-describedby': 'zl-src-model zl-err-model' }) as ValueControl;
      control.value = value ?? '';
      control.addEventListener('change', () => this.submit('model', control.value));
    }
    this.modelSlot.replaceChildren(control);
    if (field) field.control = control;
  }

  /** Options for the model select: the catalog entries the query matches, each labelled by the name it matched. */
  private modelOptions(value: string | null, query: string): HTMLElement[] {
    const options = searchCatalog(this.catalog, query, query ? 100 : this.catalog.length).map(({ entry, matched }) => {
      const label = matched === entry.displayName ? entry.displayName : `${matched} — ${entry.displayName}`;
      return h('vscode-option', { value: entry.id, description: entry.id, selected: entry.id === value }, [`${label} (${formatCount(entry.totalParams)})`]);
    });
    // The chosen model stays an option while the query hides it, so the select keeps its value.
    const chosen = value ? this.catalog.find((entry) => entry.id === value) : undefined;
    if (chosen && !options.some((o) => o.getAttribute('value') === value)) {
      options.unshift(h('vscode-option', { value: chosen.id, description: chosen.id, selected: true }, [this.catalogLabel(chosen.id)]));
    }
    if (value && !chosen) options.unshift(h('vscode-option', { value, selected: true }, [value]));
    if (!value) options.unshift(h('vscode-option', { value: '', selected: true }, [this.strings.notSetSearch]));
    return options;
  }

  /** How a catalog entry reads in the model list (what the combobox's input shows once one is chosen). */
  private catalogLabel(id: string): string {
    const entry = this.catalog.find((e) => e.id === id);
    return entry ? `${entry.displayName} (${formatCount(entry.totalParams)})` : id;
  }

  private submit(key: SettingKey, value: unknown): void {
    const field = this.fields.get(key);
    const parsed = parseSettingValue(key, value);
    if (field) {
      field.error.textContent = parsed.ok ? '' : formatMessage(this.strings.errors[parsed.problem.kind], [this.strings.labels[key], ...settingProblemArgs(parsed.problem)]);
      field.control.invalid = !parsed.ok;
    }
    if (parsed.ok) this.handlers.setSetting(key, parsed.value);
  }
}

function setControlValue(control: ValueControl, value: ContextRowVM['raw']): void {
  if (control.tagName === 'VSCODE-CHECKBOX') control.checked = value === true;
  else control.value = value === null ? '' : String(value);
  control.invalid = false;
}

function sourceText(row: ContextRowVM | undefined, inSettings: boolean, strings: WebviewStrings): string {
  if (!row) return inSettings ? strings.fromWorkspaceSettings : strings.notSet;
  if (row.raw === null) return row.source;
  return formatMessage(row.settable ? strings.from : strings.fromFileWins, [row.source]);
}
