// The binding environment of one statement: the catalog plus the table snapshots the statement opened, each
// opened once and shared by every reference to it (so a self-join reads one version of the table).
import type { Catalog } from '../../storage/catalog.js';
import type { TableSnapshot } from '../../storage/table-reader.js';
import type { SourceEnv } from './bind-source.js';
import { bindQueryWith } from './bind-query.js';
import { sqlSemanticError } from '../../core/errors.js';

export function createSourceEnv(catalog: Catalog, opened = new Map<string, TableSnapshot>()): SourceEnv {
  const env: SourceEnv = {
    catalog,
    bindQuery: (query) => bindQueryWith(query, env),
    openTable(name, position) {
      const stored = catalog.resolveName(name);
      const snapshot = stored === undefined ? undefined : (opened.get(stored) ?? catalog.openSnapshot(stored));
      if (stored === undefined || snapshot === undefined) throw sqlSemanticError(`table does not exist [table=${name}]`, position);
      opened.set(stored, snapshot);
      return snapshot;
    },
  };
  return env;
}
