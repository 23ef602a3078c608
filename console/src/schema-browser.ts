// The schema browser: tables from tables() with designated timestamp and partitioning, each expanding to its
// columns from table_columns('t'). Refreshed on demand, after DDL and after imports; also feeds the editor's
// completion with table and column names.
import { queryRows, sqlString } from './api.js';
import type { RowsResult } from './api.js';
import { element } from './format.js';

export interface TableInfo {
  readonly name: string;
  readonly designatedTimestamp: string;
  readonly partitionBy: string;
  readonly walEnabled: boolean;
}

export interface SchemaBrowser {
  refresh(): Promise<void>;
}

function columnIndex(result: RowsResult, name: string): number {
  return result.columns.findIndex((column) => column.name === name);
}

function parseTables(result: RowsResult): TableInfo[] {
  const name = columnIndex(result, 'table_name');
  const timestamp = columnIndex(result, 'designatedTimestamp');
  const partitionBy = columnIndex(result, 'partitionBy');
  const wal = columnIndex(result, 'walEnabled');
  return result.dataset
    .map((row) => ({
      name: String(row[name] ?? ''),
      designatedTimestamp: row[timestamp] === null || row[timestamp] === undefined ? '' : String(row[timestamp]),
      partitionBy: String(row[partitionBy] ?? 'NONE'),
      walEnabled: row[wal] === true,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function loadColumns(table: TableInfo, list: HTMLUListElement): Promise<string[]> {
  const result = await queryRows(`table_columns(${sqlString(table.name)})`);
  const name = columnIndex(result, 'column');
  const type = columnIndex(result, 'type');
  const designated = columnIndex(result, 'designated');
  const names: string[] = [];
  list.replaceChildren();
  for (const row of result.dataset) {
    const item = element('li', 'schema-column');
    const columnName = String(row[name] ?? '');
    names.push(columnName);
    item.append(element('span', 'column-name', columnName), element('span', 'column-type', String(row[type] ?? '').toLowerCase()));
    if (row[designated] === true) item.append(element('span', 'badge', 'designated'));
    list.append(item);
  }
  return names;
}

function renderTable(table: TableInfo, onColumns: (table: string, columns: string[]) => void, expanded: boolean): HTMLDetailsElement {
  const details = element('details', 'schema-table');
  details.dataset['table'] = table.name;
  const summary = element('summary');
  summary.append(element('span', 'table-name', table.name));
  const facts = [table.partitionBy === 'NONE' ? '' : `partition by ${table.partitionBy.toLowerCase()}`, table.designatedTimestamp === '' ? '' : `ts: ${table.designatedTimestamp}`]
    .filter((fact) => fact !== '')
    .join(' · ');
  if (facts !== '') summary.append(element('span', 'table-facts', facts));
  const list = element('ul', 'schema-columns');
  details.append(summary, list);
  const load = (): void => {
    loadColumns(table, list)
      .then((columns) => onColumns(table.name, columns))
      .catch((error: unknown) => list.replaceChildren(element('li', 'error', String(error))));
  };
  details.addEventListener('toggle', () => {
    if (details.open) load();
  });
  details.open = expanded;
  return details;
}

export function createSchemaBrowser(container: HTMLElement, onSchema: (schema: Record<string, string[]>) => void): SchemaBrowser {
  const schema: Record<string, string[]> = {};
  const onColumns = (table: string, columns: string[]): void => {
    schema[table] = columns;
    onSchema({ ...schema });
  };
  return {
    async refresh() {
      // Tables expanded before the refresh stay expanded (and reload their columns) after it.
      const expanded = new Set([...container.querySelectorAll<HTMLDetailsElement>('details[open]')].map((node) => node.dataset['table']));
      let tables: TableInfo[];
      try {
        tables = parseTables(await queryRows('tables()'));
      } catch (error) {
        container.replaceChildren(element('p', 'error', String(error)));
        return;
      }
      for (const name of Object.keys(schema)) delete schema[name];
      for (const table of tables) schema[table.name] = [];
      onSchema({ ...schema });
      if (tables.length === 0) {
        container.replaceChildren(element('p', 'empty', 'No tables yet.'));
        return;
      }
      container.replaceChildren(...tables.map((table) => renderTable(table, onColumns, expanded.has(table.name))));
    },
  };
}
