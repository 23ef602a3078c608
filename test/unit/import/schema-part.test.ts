// The schema part: v1 array and v2 object forms, and the SVC_IMPORT_BAD_SCHEMA errors for malformed input.
import test from 'ava';
import { ImportError } from '../../../src/core/errors.js';
import { parseSchemaPart } from '../../../src/import/schema-part.js';

function schemaError(t: import('ava').ExecutionContext, text: string, message: RegExp): void {
  const error = t.throws(() => parseSchemaPart(text), { instanceOf: ImportError, message });
  t.is(error?.code, 'SVC_IMPORT_BAD_SCHEMA');
}

test('v1: array of {name, type, pattern, locale}; type names are case-insensitive with SQL aliases', (t) => {
  const schema = parseSchemaPart('[{"name":"ts","type":"timestamp","pattern":"yyyy-MM-dd HH:mm:ss","locale":"en"},'
    + '{"name":"sym","type":"SYMBOL","index":true},{"name":"n","type":"bigint"}]');
  t.deepEqual(schema.columns, [
    { name: 'ts', type: 'TIMESTAMP', patterns: ['yyyy-MM-dd HH:mm:ss'], locale: 'en' },
    { name: 'sym', type: 'SYMBOL', patterns: [], locale: undefined },
    { name: 'n', type: 'LONG', patterns: [], locale: undefined },
  ]);
  t.is(schema.formatsAction, 'ADD');
});

test('v1: a TIMESTAMP without a pattern is accepted (ISO-8601), unlike QuestDB', (t) => {
  t.deepEqual(parseSchemaPart('[{"name":"ts","type":"TIMESTAMP"}]').columns[0].patterns, []);
});

test('v2: columns by file name or index, renames, per-column and per-type formats', (t) => {
  const schema = parseSchemaPart(JSON.stringify({
    columns: [
      { file_column_name: 'when', column_type: 'TIMESTAMP', table_column_name: 'ts', formats: [{ pattern: 'dd/MM/yyyy HH:mm' }] },
      { file_column_index: 2, column_type: 'DOUBLE' },
    ],
    formats: { TIMESTAMP: [{ pattern: 'yyyy.MM.dd HH:mm' }], DATE: [{ pattern: 'dd.MM.yyyy' }] },
    formats_action: 'replace',
  }));
  t.deepEqual(schema.columns[0], { name: 'when', index: undefined, type: 'TIMESTAMP', patterns: ['dd/MM/yyyy HH:mm'], tableColumnName: 'ts' });
  t.is(schema.columns[1].index, 2);
  t.deepEqual(schema.formats, { DATE: ['dd.MM.yyyy'], TIMESTAMP: ['yyyy.MM.dd HH:mm'] });
  t.is(schema.formatsAction, 'REPLACE');
});

test('malformed schemas are SVC_IMPORT_BAD_SCHEMA errors with a clear message', (t) => {
  schemaError(t, '[{"name":"a","type":"INT"', /^schema is not valid JSON/);
  schemaError(t, '"text"', /must be a JSON array/);
  schemaError(t, '[1]', /schema column must be an object \[index=0\]/);
  schemaError(t, '[{"type":"INT"}]', /Missing 'name' property/);
  schemaError(t, '[{"name":"a"}]', /Missing 'type' property/);
  schemaError(t, '[{"name":"a","type":"WIDGET"}]', /Invalid type \[type=WIDGET, column=a\]/);
  schemaError(t, '[{"name":"a","type":"BINARY"}]', /cannot import text into BINARY column/);
  schemaError(t, '[{"name":"a","type":7}]', /property 'type' must be a string/);
  schemaError(t, '[{"name":"ts","type":"TIMESTAMP","pattern":""}]', /invalid timestamp pattern/);
  schemaError(t, '{"columns":[{"column_type":"INT"}]}', /needs 'file_column_name' or 'file_column_index'/);
  schemaError(t, '{"columns":[],"formats_action":"MERGE"}', /'formats_action' valid values/);
});
