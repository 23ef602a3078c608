// SHOW <parameter> and SHOW ALL over PostgreSQL's session parameters (types/pg-settings.ts): one row, one
// column named after the parameter as PostgreSQL spells it, as psql and drivers expect.
import type { QueryFactory } from '../exec/operator.js';
import { MaterializedFactory } from '../exec/materialized.js';
import { PG_SETTINGS, findPgSetting } from '../../types/pg-settings.js';
import { sqlSemanticError } from '../../core/errors.js';

export function showPgSettingFactory(name: string, position: number): QueryFactory {
  const setting = findPgSetting(name);
  if (setting === undefined) throw sqlSemanticError(`unrecognized configuration parameter "${name}"`, position);
  return new MaterializedFactory([{ name: setting.name, type: 'VARCHAR' }], () => [[setting.setting]], `show ${setting.name}`);
}

export function showAllSettingsFactory(): QueryFactory {
  const columns = [{ name: 'name', type: 'VARCHAR' }, { name: 'setting', type: 'VARCHAR' }, { name: 'description', type: 'VARCHAR' }] as const;
  return new MaterializedFactory(columns, () => PG_SETTINGS.map((setting) => [setting.name, setting.setting, setting.description]), 'show all');
}
