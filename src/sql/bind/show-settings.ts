// SHOW <parameter> and SHOW ALL over PostgreSQL's session parameters (types/pg-settings.ts): one row, one
// column named after the parameter as PostgreSQL spells it, as psql and drivers expect.
import type { ValuesPlan } from '../plan/logical-plan.js';
import { valuesPlan } from '../plan/plan-builders.js';
import { PG_SETTINGS, findPgSetting } from '../../types/pg-settings.js';
import { sqlSemanticError } from '../../core/errors.js';

export function showPgSettingRelation(name: string, position: number): ValuesPlan {
  const setting = findPgSetting(name);
  if (setting === undefined) throw sqlSemanticError(`unrecognized configuration parameter "${name}"`, position);
  return valuesPlan([{ name: setting.name, type: 'VARCHAR' }], () => [[setting.setting]], `show ${setting.name}`);
}

export function showAllSettingsRelation(): ValuesPlan {
  const columns = [{ name: 'name', type: 'VARCHAR' }, { name: 'setting', type: 'VARCHAR' }, { name: 'description', type: 'VARCHAR' }] as const;
  return valuesPlan(columns, () => PG_SETTINGS.map((setting) => [setting.name, setting.setting, setting.description]), 'show all');
}
