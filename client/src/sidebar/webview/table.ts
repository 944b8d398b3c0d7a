/** The same numbers as the bars, as a plain table for screen readers and copying. */
import type { SidebarViewModel, WebviewStrings } from '../messages';
import { h } from './dom';

export function renderTable(vm: SidebarViewModel, strings: WebviewStrings): HTMLElement | null {
  if (vm.table.rows.length === 0) return null;
  const head = h('tr', {}, vm.table.headers.map((header, i) => h('th', { scope: 'col', class: i === 0 ? 'zl-col-option' : 'zl-num' }, [header])));
  const rows = vm.table.rows.map((row) =>
    h(
      'tr',
      { 'data-current': row.current ? 'true' : null, 'aria-current': row.current ? 'true' : null },
      row.cells.map((cell, i) => (i === 0 ? h('th', { scope: 'row', class: 'zl-col-option' }, [cell]) : h('td', { class: 'zl-num' }, [cell]))),
    ),
  );
  return h('div', { class: 'zl-table-wrap', tabindex: 0, role: 'region', 'aria-label': strings.tableLabel }, [
    h('table', { 'data-testid': 'zl-table', class: 'zl-table' }, [
      h('caption', {}, [strings.tableCaption]),
      h('thead', {}, [head]),
      h('tbody', {}, rows),
    ]),
  ]);
}
