// The results grid: one page of rows fetched with `limit=lo,hi`, the total row count from `count=true`, and
// paging buttons that fetch the neighbouring pages of the same statement.
import type { Cell, RowsResult } from './api.js';
import { element, formatCount } from './format.js';

export const PAGE_ROWS = 100;

export interface PageRequest {
  /** 0-based index of the page's first row. */
  readonly firstRow: number;
}

export interface ResultsGrid {
  show(result: RowsResult, firstRow: number): void;
  showMessage(text: string): void;
}

/** `limit` for the page starting at 0-based firstRow: /exec's `lo,hi` means rows lo..hi, 1-based and inclusive. */
export function pageLimit(firstRow: number): string {
  return `${firstRow + 1},${firstRow + PAGE_ROWS}`;
}

function cellText(cell: Cell): string {
  if (cell === null) return 'null';
  return String(cell);
}

function renderTable(result: RowsResult): HTMLTableElement {
  const table = element('table', 'grid');
  const head = table.createTHead().insertRow();
  for (const column of result.columns) {
    const th = element('th');
    th.append(element('span', 'column-name', column.name), element('span', 'column-type', column.type.toLowerCase()));
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of result.dataset) {
    const tr = body.insertRow();
    for (let index = 0; index < result.columns.length; index++) {
      const cell = row[index] ?? null;
      const td = tr.insertCell();
      td.textContent = cellText(cell);
      if (cell === null) td.className = 'null';
      else if (typeof cell === 'number') td.className = 'number';
    }
  }
  return table;
}

export function createResultsGrid(container: HTMLElement, pager: HTMLElement, onPage: (request: PageRequest) => void): ResultsGrid {
  const previous = element('button', 'pager-previous', '‹ Previous');
  const next = element('button', 'pager-next', 'Next ›');
  const range = element('span', 'pager-range');
  pager.replaceChildren(previous, range, next);
  let firstRow = 0;
  let count = 0;
  previous.addEventListener('click', () => onPage({ firstRow: Math.max(0, firstRow - PAGE_ROWS) }));
  next.addEventListener('click', () => onPage({ firstRow: firstRow + PAGE_ROWS }));

  const updatePager = (rows: number): void => {
    range.textContent = rows === 0 ? `0 of ${formatCount(count)} rows` : `rows ${formatCount(firstRow + 1)}–${formatCount(firstRow + rows)} of ${formatCount(count)}`;
    previous.disabled = firstRow === 0;
    next.disabled = firstRow + rows >= count;
    pager.hidden = false;
  };

  return {
    show(result, first) {
      firstRow = first;
      count = result.count;
      container.replaceChildren(renderTable(result));
      container.scrollTop = 0;
      updatePager(result.dataset.length);
    },
    showMessage(text) {
      container.replaceChildren(element('p', 'grid-message', text));
      pager.hidden = true;
    },
  };
}
