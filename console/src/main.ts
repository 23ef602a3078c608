// Wires the console together: the editor runs a statement, the grid shows its first page and pages on, the
// chart re-runs it with a larger limit, DDL and imports refresh the schema browser, and the export buttons
// download the statement under the cursor.
import './style.css';
import { execute } from './api.js';
import type { RowsResult } from './api.js';
import { createSqlEditor } from './sql-editor.js';
import type { StatementRange } from './statement-at-cursor.js';
import { createResultsGrid, pageLimit } from './results-grid.js';
import { createSchemaBrowser } from './schema-browser.js';
import { createChartView } from './chart-view.js';
import type { ChartKind } from './chart-view.js';
import { createImportPanel } from './import-panel.js';
import { exportQuery } from './export-actions.js';
import { authorizationHeader, credentialEvents, signOut } from './credentials.js';
import { byId, formatCount, formatNanos } from './format.js';

/** Rows fetched for a chart: enough for a dense line, small enough to draw at once. */
const CHART_ROWS_MAX = 10_000;

const status = byId('status', HTMLElement);
const chartKind = byId('chart-kind', HTMLSelectElement);
const gridTab = byId('tab-grid', HTMLButtonElement);
const chartTab = byId('tab-chart', HTMLButtonElement);
const signOutButton = byId('sign-out', HTMLButtonElement);

const editor = createSqlEditor(byId('editor', HTMLElement), () => void runStatement());
const grid = createResultsGrid(byId('grid', HTMLElement), byId('pager', HTMLElement), (request) => void showPage(request.firstRow));
const chart = createChartView(byId('chart', HTMLElement), byId('chart-note', HTMLElement));
const schema = createSchemaBrowser(byId('schema', HTMLElement), (tables) => editor.setSchema(tables));
createImportPanel(() => void schema.refresh());

/** The last statement that returned rows: what the pager and the chart work on. */
let rowsQuery: string | undefined;
let chartResult: { query: string; result: RowsResult } | undefined;
let running: AbortController | undefined;

function setStatus(text: string, kind: 'ok' | 'error' | 'busy'): void {
  status.textContent = text;
  status.className = `status ${kind}`;
}

function describe(result: RowsResult, elapsedMs: number): string {
  const parts = [`${formatCount(result.count)} ${result.count === 1 ? 'row' : 'rows'}`];
  if (result.timings !== undefined) {
    parts.push(`execute ${formatNanos(result.timings.execute)}`, `compile ${formatNanos(result.timings.compiler)}`, `count ${formatNanos(result.timings.count)}`);
  }
  parts.push(`total ${formatNanos(elapsedMs * 1e6)}`);
  return parts.join(' · ');
}

/** Runs `query` with a fresh abort signal, cancelling the request still running (the server then stops it). */
async function run(query: string, limit: string): Promise<{ result: Awaited<ReturnType<typeof execute>>; elapsedMs: number } | undefined> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const started = performance.now();
  setStatus('Running…', 'busy');
  try {
    const result = await execute(query, { limit, signal: controller.signal });
    return { result, elapsedMs: performance.now() - started };
  } catch (error) {
    if (controller.signal.aborted) return undefined;
    setStatus(`Request failed: ${String(error)}`, 'error');
    return undefined;
  } finally {
    if (running === controller) running = undefined;
  }
}

async function runStatement(): Promise<void> {
  const statement = editor.currentStatement();
  if (statement === undefined) {
    setStatus('Nothing to run', 'error');
    return;
  }
  editor.clearErrors();
  const outcome = await run(statement.text, pageLimit(0));
  if (outcome === undefined) return;
  const { result, elapsedMs } = outcome;
  switch (result.kind) {
    case 'error':
      showError(statement, result.message, result.position);
      return;
    case 'ddl':
    case 'dml':
      setStatus(`${result.kind.toUpperCase()} OK · total ${formatNanos(elapsedMs * 1e6)}`, 'ok');
      grid.showMessage(result.kind === 'ddl' ? 'Done. The table list is refreshed.' : 'Done.');
      if (result.kind === 'ddl') await schema.refresh();
      return;
    case 'rows':
      rowsQuery = statement.text;
      chartResult = undefined;
      grid.show(result, 0);
      setStatus(describe(result, elapsedMs), 'ok');
      if (chartTab.getAttribute('aria-selected') === 'true') await drawChart();
      return;
  }
}

function showError(statement: StatementRange, message: string, position: number): void {
  editor.markError(statement, position, message);
  setStatus(`${message} (at ${position})`, 'error');
  grid.showMessage(message);
}

async function showPage(firstRow: number): Promise<void> {
  if (rowsQuery === undefined) return;
  const outcome = await run(rowsQuery, pageLimit(firstRow));
  if (outcome === undefined) return;
  if (outcome.result.kind === 'rows') {
    grid.show(outcome.result, firstRow);
    setStatus(describe(outcome.result, outcome.elapsedMs), 'ok');
  } else if (outcome.result.kind === 'error') {
    setStatus(outcome.result.message, 'error');
  }
}

async function drawChart(): Promise<void> {
  if (rowsQuery === undefined) {
    chart.clear('Run a query with a timestamp column to chart it.');
    return;
  }
  if (chartResult?.query !== rowsQuery) {
    const query = rowsQuery;
    const outcome = await run(query, String(CHART_ROWS_MAX));
    if (outcome === undefined) return;
    if (outcome.result.kind !== 'rows') {
      chart.clear(outcome.result.kind === 'error' ? outcome.result.message : 'The statement returned no rows.');
      return;
    }
    chartResult = { query, result: outcome.result };
    setStatus(describe(outcome.result, outcome.elapsedMs), 'ok');
  }
  const kind: ChartKind = chartKind.value === 'bar' ? 'bar' : 'line';
  chart.show(chartResult.result, kind);
}

function selectTab(showChart: boolean): void {
  gridTab.setAttribute('aria-selected', String(!showChart));
  chartTab.setAttribute('aria-selected', String(showChart));
  byId('grid-view', HTMLElement).hidden = showChart;
  byId('chart-view', HTMLElement).hidden = !showChart;
  chartKind.hidden = !showChart;
  if (showChart) void drawChart();
}

async function exportCurrent(format: 'csv' | 'parquet'): Promise<void> {
  const statement = editor.currentStatement();
  if (statement === undefined) {
    setStatus('Nothing to export', 'error');
    return;
  }
  editor.clearErrors();
  const failure = await exportQuery(statement.text, format);
  if (failure === undefined) setStatus(`Export (${format}) started`, 'ok');
  else setStatus(failure, 'error');
}

byId('run', HTMLButtonElement).addEventListener('click', () => void runStatement());
byId('export-csv', HTMLButtonElement).addEventListener('click', () => void exportCurrent('csv'));
byId('export-parquet', HTMLButtonElement).addEventListener('click', () => void exportCurrent('parquet'));
byId('schema-refresh', HTMLButtonElement).addEventListener('click', () => void schema.refresh());
gridTab.addEventListener('click', () => selectTab(false));
chartTab.addEventListener('click', () => selectTab(true));
chartKind.addEventListener('change', () => void drawChart());
signOutButton.addEventListener('click', signOut);
credentialEvents.addEventListener('change', () => {
  signOutButton.hidden = authorizationHeader() === null;
});
signOutButton.hidden = authorizationHeader() === null;

void schema.refresh();
editor.focus();
