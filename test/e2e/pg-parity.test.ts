// Results over the PostgreSQL wire protocol equal /exec's for a fixed query set (SAMPLE BY with FILL, LATEST
// ON, ASOF JOIN, GROUP BY, interval filters, window functions, UNION), in text format and, for the same queries
// bound as prepared statements, with parameters; column names and types agree with /exec's metadata. PG text
// is normalized to /exec's JSON values per column type (timestamps to ISO, numbers, t/f to booleans).
import test from 'ava';
import pg from 'pg';
import { startServer, type TestServer } from '../helpers/server.js';
import { execOk } from '../helpers/http.js';

let server: TestServer;
let client: pg.Client;

/** Every PG type as its raw text: the comparison parses by the /exec column type instead. */
const rawText = { getTypeParser: () => (value: string) => value };

const QUERIES = [
  'select * from trades order by ts limit 30',
  "select ts, sym, avg(price) avg, sum(qty) qty, count(*) n from trades sample by 1h fill(null) align to calendar",
  "select ts, first(price), last(price), max(qty) from trades where ts in '2024-01-01' sample by 30m fill(prev)",
  'select * from trades latest on ts partition by sym',
  'select t.ts, t.sym, t.price, q.bid, q.ask from trades t asof join quotes q on (sym) order by t.ts limit 50',
  'select sym, count(*), avg(price), min(ts), max(ts), sum(qty) from trades group by sym order by sym',
  "select * from trades where ts between '2024-01-01T03' and '2024-01-01T04' and sym = 'b' order by ts",
  'select sym, price, row_number() over (partition by sym order by ts) rn from trades order by ts limit 40',
  "select sym, flag, note from trades where note is null or flag order by ts limit 25",
  'select sym from trades union select sym from quotes order by sym',
  'select count(*), count_distinct(sym), sum(price) from trades',
];

function normalize(text: string | null, type: string): unknown {
  if (text === null) return null;
  switch (type) {
    case 'TIMESTAMP': return `${text.replace(' ', 'T')}Z`;
    case 'DOUBLE': case 'FLOAT': case 'INT': case 'SHORT': case 'BYTE': return Number(text);
    case 'LONG': return Number(text);
    case 'BOOLEAN': return text === 't';
    default: return text;
  }
}

interface ExecBody {
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly dataset: readonly (readonly unknown[])[];
}

async function execBody(query: string): Promise<ExecBody> {
  const body = await execOk(server.baseUrl, query);
  return { columns: body['columns'] as ExecBody['columns'], dataset: body['dataset'] as ExecBody['dataset'] };
}

function normalizedRows(result: pg.QueryResult, columns: ExecBody['columns']): unknown[][] {
  return result.rows.map((row: unknown[]) => row.map((cell, k) => normalize(cell === null ? null : String(cell), columns[k]?.type ?? 'STRING')));
}

test.before(async () => {
  server = await startServer();
  await execOk(server.baseUrl, 'create table trades (ts timestamp, sym symbol, price double, qty long, flag boolean, note varchar) timestamp(ts) partition by day');
  await execOk(server.baseUrl, "insert into trades select timestamp_sequence('2024-01-01', 97000000L), rnd_symbol('a','b','c'), rnd_double() * 100, rnd_long(1, 1000, 0), rnd_boolean(), rnd_varchar('x', 'yy', null) from long_sequence(2000)");
  await execOk(server.baseUrl, 'create table quotes (ts timestamp, sym symbol, bid double, ask double) timestamp(ts) partition by day');
  await execOk(server.baseUrl, "insert into quotes select timestamp_sequence('2024-01-01', 41000000L), rnd_symbol('a','b','c','d'), rnd_double() * 100, rnd_double() * 100 + 1 from long_sequence(4000)");
  client = new pg.Client({ host: '127.0.0.1', port: server.pgPort, user: 'admin', password: 'quest', types: rawText });
  await client.connect();
});

test.after.always(async () => {
  await client?.end();
  await server?.stop();
  server?.cleanup();
});

for (const query of QUERIES) {
  test.serial(`PG equals /exec: ${query}`, async (t) => {
    const expected = await execBody(query);
    const simple = await client.query({ text: query, rowMode: 'array' });
    t.deepEqual(simple.fields.map((field) => field.name), expected.columns.map((column) => column.name));
    t.deepEqual(normalizedRows(simple, expected.columns), expected.dataset);
    // The extended protocol (a parameter forces it) returns the same rows.
    const extended = await client.query({ text: `select * from (${query}) where $1::int = 1`, values: [1], rowMode: 'array' });
    t.deepEqual(normalizedRows(extended, expected.columns), expected.dataset);
  });
}
