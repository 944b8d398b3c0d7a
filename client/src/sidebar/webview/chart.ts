/**
 * The picture: one stacked bar per option on a shared GiB axis, a GPU-capacity line, a thin second
 * row for the CPU RAM and NVMe that offload needs, and an Apply button; then, on the same axis, the same job
 * under FSDP or Megatron (no Apply). Pure DOM, no chart library.
 * Keyboard: Tab reaches each bar; arrow keys move between segments (←/→) and bars of one group (↑/↓).
 */
import type { AlternativeVM, BarVM, MemoryRowVM, OptionKey, SegmentVM, SidebarViewModel, WebviewStrings } from '../messages';
import { button, h, icon, percent, themeColor, type WebviewIcon } from './dom';

export interface ChartHandlers {
  apply(option: OptionKey, button: HTMLElement): void;
}

/** Segments narrower than this share of the axis get no letter inside. */
const MIN_LABEL_FRACTION = 0.06;

export function renderChart(vm: SidebarViewModel, strings: WebviewStrings, handlers: ChartHandlers): HTMLElement | null {
  if (vm.bars.length === 0) return null;
  const grouped = vm.alternatives.length > 0;
  const chart = h('div', { class: 'zl-chart', 'data-testid': 'zl-chart' }, [
    renderLegend(vm, strings),
    renderAxis(vm),
    // With a second group each gets a visible heading; alone, the ZeRO list needs none.
    grouped ? h('h3', { class: 'zl-group-heading' }, [strings.zeroOptions]) : null,
    h(
      'ol',
      { class: 'zl-options', 'aria-label': strings.zeroOptions },
      vm.bars.map((bar) => renderOption(vm, bar, strings, handlers)),
    ),
    grouped ? renderAlternatives(vm, strings) : null,
  ]);
  chart.addEventListener('keydown', onKeyDown);
  chart.addEventListener('focusin', (event) => showDetail(event.target));
  chart.addEventListener('mouseover', (event) => showDetail(event.target));
  chart.addEventListener('focusout', (event) => hideDetail(event.target));
  chart.addEventListener('mouseout', (event) => hideDetail(event.target));
  return chart;
}

function renderLegend(vm: SidebarViewModel, strings: WebviewStrings): HTMLElement {
  return h(
    'ul',
    { class: 'zl-legend', 'aria-label': strings.legend },
    vm.legend.map(({ role, style }) => {
      const swatch = h('span', { class: `zl-swatch zl-pattern-${style.pattern}`, 'aria-hidden': 'true' }, [style.short]);
      swatch.style.setProperty('--zl-color', themeColor(style.colorVar));
      return h('li', { 'data-role': role }, [swatch, style.label]);
    }),
  );
}

function renderAxis(vm: SidebarViewModel): HTMLElement {
  const axis = h('div', { class: 'zl-axis', 'aria-hidden': 'true' });
  vm.axis.ticks.forEach((tick, i) => {
    // The last tick ends at the axis end so it does not run into the unit.
    const mark = h('span', { class: i === vm.axis.ticks.length - 1 && i > 0 ? 'zl-tick zl-tick-end' : 'zl-tick' }, [tick.label]);
    mark.style.left = percent(tick.fraction);
    axis.appendChild(mark);
  });
  axis.appendChild(h('span', { class: 'zl-axis-unit' }, ['GiB']));
  if (vm.capacity) {
    const label = h('span', { class: 'zl-capacity-label' }, [vm.capacity.label]);
    label.style.left = percent(vm.capacity.fraction);
    if (vm.capacity.fraction > 0.6) label.classList.add('zl-capacity-label-end');
    axis.appendChild(label);
  }
  return axis;
}

function renderOption(vm: SidebarViewModel, bar: BarVM, strings: WebviewStrings, handlers: ChartHandlers): HTMLElement {
  const track = {
    'data-testid': 'zl-bar',
    'data-stage': bar.option.stage,
    'data-offload-optimizer': bar.option.offloadOptimizer,
    'data-offload-param': bar.option.offloadParam,
  };
  if (!bar.applicable) return renderRow(vm, bar, strings, track, null);
  const apply = button(
    {
      'data-testid': 'zl-apply',
      'data-key': bar.key,
      'data-current': bar.current ? 'true' : null,
      secondary: !bar.current,
      disabled: bar.current,
      icon: bar.current ? 'check' : 'arrow-right',
      'aria-label': bar.applyLabel,
      title: bar.applyTitle,
    },
    [bar.current ? strings.current : strings.apply],
  );
  if (!bar.current) apply.addEventListener('click', () => handlers.apply(bar.option, apply));
  return renderRow(vm, bar, strings, track, apply);
}

/** The FSDP / Megatron rows: a heading, what they are, and one bar each on the ZeRO bars' axis. */
function renderAlternatives(vm: SidebarViewModel, strings: WebviewStrings): HTMLElement {
  return h('div', { class: 'zl-alternatives', 'data-testid': 'zl-alternatives' }, [
    h('h3', { class: 'zl-group-heading' }, [strings.alternatives]),
    h('p', { class: 'zl-group-note' }, [strings.alternativesNote]),
    h(
      'ol',
      { class: 'zl-options', 'aria-label': strings.alternatives },
      vm.alternatives.map((row: AlternativeVM) => renderRow(vm, row, strings, { 'data-testid': 'zl-alt', 'data-family': row.family }, null)),
    ),
  ]);
}

function renderRow(vm: SidebarViewModel, row: MemoryRowVM, strings: WebviewStrings, trackAttrs: Record<string, string | number>, action: HTMLElement | null): HTMLElement {
  const track = h('div', {
    class: 'zl-track',
    role: 'group',
    'aria-label': row.ariaLabel,
    ...trackAttrs,
    'data-key': row.key,
    'data-current': row.current ? 'true' : null,
    'data-fit': row.fit,
  });
  row.segments.forEach((segment, i) => track.appendChild(renderSegment(segment, i === 0 ? 0 : -1, 'zl-segment')));
  if (vm.capacity) {
    const line = h('span', { class: 'zl-capacity', 'data-testid': 'zl-capacity', 'aria-hidden': 'true', title: vm.capacity.label });
    line.style.left = percent(vm.capacity.fraction);
    track.appendChild(line);
  }
  const offload = h('div', {
    class: 'zl-track zl-track-offload',
    role: 'group',
    'aria-label': row.offload.ariaLabel,
    'data-testid': 'zl-offload',
  });
  for (const segment of row.offload.segments) offload.appendChild(renderSegment(segment, -1, 'zl-offload-segment'));

  const fitIcon: WebviewIcon = row.fit === 'fits' ? 'pass' : row.fit === 'exceeds' ? 'warning' : 'question';
  return h('li', { class: `zl-option zl-fit-${row.fit}`, 'data-current': row.current ? 'true' : null, 'aria-current': row.current ? 'true' : null }, [
    h('div', { class: 'zl-option-head' }, [
      h('span', { class: 'zl-option-label' }, [row.label, row.current ? h('span', { class: 'zl-current-badge' }, [strings.currentBadge]) : null]),
      h('span', { class: 'zl-option-total' }, [
        h('span', { class: 'zl-nowrap' }, [icon(fitIcon), ` ${row.total}`]),
        ' · ',
        h('span', { class: 'zl-nowrap' }, [row.fitLabel]),
      ]),
    ]),
    h('div', { class: 'zl-option-peak', 'data-testid': 'zl-peak' }, [row.peakLine]),
    track,
    offload,
    h('div', { class: 'zl-option-foot' }, [
      h('span', { class: 'zl-offload-label' }, [row.offload.label]),
      action,
    ]),
    h('div', { class: 'zl-detail', 'aria-hidden': 'true' }),
  ]);
}

function renderSegment(segment: SegmentVM, tabindex: number, className: string): HTMLElement {
  const element = h(
    'span',
    {
      class: `${className} zl-pattern-${segment.style.pattern}`,
      'data-testid': className === 'zl-segment' ? 'zl-segment' : 'zl-offload-segment',
      'data-role': segment.role,
      'data-bytes': segment.bytes,
      role: 'img',
      tabindex,
      'aria-label': segment.description,
      title: segment.description,
    },
    // The thin offload row has no room for letters; its label sits under it.
    [className === 'zl-segment' && segment.fraction >= MIN_LABEL_FRACTION ? segment.style.short : ''],
  );
  element.style.width = percent(segment.fraction);
  element.style.setProperty('--zl-color', themeColor(segment.style.colorVar));
  return element;
}

function segmentOf(target: EventTarget | null): HTMLElement | null {
  return target instanceof HTMLElement && (target.classList.contains('zl-segment') || target.classList.contains('zl-offload-segment')) ? target : null;
}

function showDetail(target: EventTarget | null): void {
  const segment = segmentOf(target);
  const detail = segment?.closest('.zl-option')?.querySelector('.zl-detail');
  if (!segment || !detail) return;
  detail.textContent = segment.getAttribute('aria-label') ?? '';
  detail.classList.add('zl-detail-visible');
}

function hideDetail(target: EventTarget | null): void {
  const segment = segmentOf(target);
  const option = segment?.closest('.zl-option');
  const detail = option?.querySelector('.zl-detail');
  // Keep the detail while another segment of the same bar still has focus.
  if (!detail || option?.contains(document.activeElement) && segmentOf(document.activeElement)) return;
  detail.classList.remove('zl-detail-visible');
}

/** Roving focus inside the chart: one tab stop per bar, arrows for the rest. */
function onKeyDown(event: KeyboardEvent): void {
  const segment = segmentOf(event.target);
  if (!segment || !segment.classList.contains('zl-segment')) return;
  const track = segment.parentElement!;
  const segments = Array.from(track.querySelectorAll<HTMLElement>('.zl-segment'));
  const index = segments.indexOf(segment);
  let next: HTMLElement | undefined;
  switch (event.key) {
    case 'ArrowRight':
      next = segments[index + 1];
      break;
    case 'ArrowLeft':
      next = segments[index - 1];
      break;
    case 'Home':
      next = segments[0];
      break;
    case 'End':
      next = segments[segments.length - 1];
      break;
    case 'ArrowDown':
    case 'ArrowUp': {
      const list = track.closest('.zl-options');
      const tracks = list ? Array.from(list.querySelectorAll<HTMLElement>('.zl-track:not(.zl-track-offload)')) : [];
      const other = tracks[tracks.indexOf(track) + (event.key === 'ArrowDown' ? 1 : -1)];
      const otherSegments = other ? Array.from(other.querySelectorAll<HTMLElement>('.zl-segment')) : [];
      const role = segment.dataset.role;
      next = otherSegments.find((s) => s.dataset.role === role) ?? otherSegments[Math.min(index, otherSegments.length - 1)];
      break;
    }
    default:
      return;
  }
  event.preventDefault();
  if (!next) return;
  // Each bar keeps exactly one tab stop: the segment last focused in it.
  next.parentElement!.querySelectorAll<HTMLElement>('.zl-segment').forEach((s) => (s.tabIndex = -1));
  next.tabIndex = 0;
  next.focus();
}
