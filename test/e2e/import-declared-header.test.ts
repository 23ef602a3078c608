// POST /imp where types are declared, by an existing table or a `schema` part: a first line naming the declared
// columns is a header, so is a first line with a value its declared type cannot take, and the bad values of
// later lines go to the atomicity mode instead of turning the header into a rejected row. Without declared
// types, detection decides as before.
import test from 'ava';
import { startServer, type TestServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { importCsv, type UploadPart } from '../helpers/upload.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ workers: 1 });
});

test.after.always(async () => {
  await server?.stop();
  server?.cleanup();
});

interface Report {
  readonly status: string;
  readonly header: boolean;
  readonly rowsImported: number;
  readonly rowsRejected: number;
  readonly columns: readonly { readonly name: string; readonly type: string; readonly errors: number }[];
}

const csvPart = (content: string): UploadPart => ({ name: 'data', filename: 'data.csv', content });
const schemaPart = (columns: unknown): UploadPart => ({ name: 'schema', content: JSON.stringify(columns) });

async function upload(params: Record<string, string>, parts: readonly UploadPart[]): Promise<Report> {
  const response = await importCsv(server.baseUrl, { fmt: 'json', ...params }, parts);
  return response.json as Report;
}

/** A later bad value makes `v` text-like with and without the first line, which detection alone reads as no header. */
const NAMED_WITH_BAD_VALUE = 'v,s\n3,c\nnot-a-number,d\n5,e\n';

test('an existing table: a first line equal to its column names is a header; bad values follow atomicity', async (t) => {
  await upload({ name: 'hdr_table' }, [csvPart('v,s\n1,a\n2,b\n')]);
  const skipCol = await upload({ name: 'hdr_table' }, [csvPart(NAMED_WITH_BAD_VALUE)]);
  t.like(skipCol, { status: 'OK', header: true, rowsImported: 3, rowsRejected: 0 });
  t.is(skipCol.columns[0]?.errors, 1);
  const skipRow = await upload({ name: 'hdr_table', atomicity: 'skipRow' }, [csvPart(NAMED_WITH_BAD_VALUE)]);
  t.like(skipRow, { status: 'OK', header: true, rowsImported: 2, rowsRejected: 1 });
  const before = await rows(server.baseUrl, 'select count() from hdr_table');
  const abort = await upload({ name: 'hdr_table', atomicity: 'abort' }, [csvPart(NAMED_WITH_BAD_VALUE)]);
  t.not(abort.status, 'OK');
  t.deepEqual(await rows(server.baseUrl, 'select count() from hdr_table'), before);
  t.deepEqual(await rows(server.baseUrl, 'select v, s from hdr_table'), [[1, 'a'], [2, 'b'], [3, 'c'], [null, 'd'], [5, 'e'], [3, 'c'], [5, 'e']]);
});

test('an existing table: a first line its types cannot take is a header; a first line they can take is data', async (t) => {
  await upload({ name: 'hdr_types' }, [csvPart('v,s\n1,a\n')]);
  const renamed = await upload({ name: 'hdr_types' }, [csvPart('value,label\n7,x\n')]);
  t.like(renamed, { status: 'OK', header: true, rowsImported: 1 });
  const headless = await upload({ name: 'hdr_types' }, [csvPart('8,y\n9,z\n')]);
  t.like(headless, { status: 'OK', header: false, rowsImported: 2 });
  t.deepEqual(await rows(server.baseUrl, 'select v, s from hdr_types'), [[1, 'a'], [7, 'x'], [8, 'y'], [9, 'z']]);
});

test('a schema part: a first line naming its columns is a header, and declared types apply to them', async (t) => {
  const report = await upload({ name: 'hdr_schema' }, [schemaPart([{ name: 'v', type: 'INT' }]), csvPart('v,s\n3,c\nx,d\n')]);
  t.like(report, { status: 'OK', header: true, rowsImported: 2 });
  t.deepEqual(report.columns.map((column) => [column.name, column.type, column.errors]), [['v', 'INT', 1], ['s', 'CHAR', 0]]);
  t.deepEqual(await rows(server.baseUrl, 'select v, s from hdr_schema'), [[3, 'c'], [null, 'd']]);
  const abort = await upload({ name: 'hdr_schema_abort', atomicity: 'abort' }, [schemaPart([{ name: 'v', type: 'INT' }]), csvPart('v,s\n3,c\nx,d\n')]);
  t.not(abort.status, 'OK');
});

test('a schema part by index: a first-line value the declared type cannot take makes it a header', async (t) => {
  const schema = { columns: [{ file_column_index: 0, column_type: 'INT' }] };
  const report = await upload({ name: 'hdr_index' }, [schemaPart(schema), csvPart('count,label\n4,p\nx,q\n')]);
  t.like(report, { status: 'OK', header: true, rowsImported: 2 });
  t.deepEqual(await rows(server.baseUrl, 'select * from hdr_index'), [[4, 'p'], [null, 'q']]);
});

test('without declared types detection is unchanged: the same file has no header', async (t) => {
  const report = await upload({ name: 'hdr_detected' }, [csvPart('v,s\n3,c\nx,d\n')]);
  t.like(report, { status: 'OK', header: false, rowsImported: 3 });
  t.deepEqual(report.columns.map((column) => column.name), ['f0', 'f1']);
});
