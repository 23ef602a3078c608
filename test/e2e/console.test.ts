// The web console end to end: Debian's Chromium (headless, through playwright-core) against a real server,
// driving the page as a user would: keyboard run, paging, error marks, schema browser, chart, CSV import by
// file input, CSV and Parquet export. Each view is saved as a screenshot under test/artifacts/ for review.
import test from 'ava';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, startServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { getJson } from '../helpers/http.js';
import { ParquetReader } from '../helpers/duckdb-parquet.js';

const artifactsDir = join(repoRoot, 'test', 'artifacts');
const chromiumPath = '/usr/bin/chromium';
/** Upper bound for any single wait in the page: a hang fails the step instead of the whole run. */
const stepTimeoutMs = 30_000;

let server: TestServer;
let browser: Browser;
let page: Page;

test.before(async () => {
  mkdirSync(artifactsDir, { recursive: true });
  server = await startServer({ workers: 1 });
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  context.setDefaultTimeout(stepTimeoutMs);
  page = await context.newPage();
  await page.goto(`${server.baseUrl}/`);
  await page.locator('.cm-content').waitFor();
});

test.after.always(async () => {
  await browser?.close();
  await server?.stop();
  server?.cleanup();
});

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: join(artifactsDir, `console-${name}.png`) });
}

/** Replaces the editor's text and leaves the cursor at the end, as if typed. */
async function setEditorText(text: string): Promise<void> {
  await page.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape');
}

async function runWithKeyboard(text: string): Promise<void> {
  const before = await page.locator('#status').textContent();
  await setEditorText(text);
  await page.keyboard.press('ControlOrMeta+Enter');
  // Page-side code is passed as text: this file is compiled without the DOM library.
  await page.waitForFunction(`(() => {
    const status = document.querySelector('#status');
    return status !== null && !status.classList.contains('busy') && status.textContent !== ${JSON.stringify(before)};
  })()`);
}

async function gridColumn(index: number): Promise<string[]> {
  return page.locator(`table.grid tbody tr td:nth-child(${index + 1})`).allTextContents();
}

test.serial('Ctrl+Enter runs the statement under the cursor; the grid pages with limit and shows count and timings', async (t) => {
  await runWithKeyboard('select 1 as one;\nselect x, x * 2 as doubled from long_sequence(250);');
  const headers = await page.locator('table.grid thead .column-name').allTextContents();
  t.deepEqual(headers, ['x', 'doubled']);
  const first = await gridColumn(0);
  t.is(first.length, 100);
  t.is(first[0], '1');
  t.is((await gridColumn(1))[99], '200');
  t.is(await page.locator('.pager-range').textContent(), 'rows 1–100 of 250');
  const status = (await page.locator('#status').textContent()) ?? '';
  t.regex(status, /^250 rows · execute .+ · compile .+ · count .+ · total /);
  await screenshot('grid');

  await page.locator('.pager-next').click();
  await page.locator('.pager-range', { hasText: 'rows 101–200 of 250' }).waitFor();
  t.is((await gridColumn(0))[0], '101');
  await page.locator('.pager-next').click();
  await page.locator('.pager-range', { hasText: 'rows 201–250 of 250' }).waitFor();
  t.is((await gridColumn(0)).length, 50);
  t.true(await page.locator('.pager-next').isDisabled());
});

test.serial('an error is marked in the editor at the position the server reports', async (t) => {
  await runWithKeyboard('select 1;\nselect x, nope from long_sequence(3);');
  const mark = page.locator('.cm-lintRange-error');
  await mark.waitFor();
  t.is(await mark.textContent(), 'nope');
  t.regex((await page.locator('#status').textContent()) ?? '', /Invalid column: nope \(at 10\)/);
  await mark.hover();
  await page.locator('.cm-tooltip-lint', { hasText: 'Invalid column: nope' }).waitFor();
  await screenshot('error');
});

test.serial('a created table appears in the schema browser with its columns, timestamp and partitioning', async (t) => {
  await runWithKeyboard('create table trades (ts timestamp, sym symbol, price double, qty long) timestamp(ts) partition by DAY;');
  const table = page.locator('details[data-table="trades"]');
  await table.waitFor();
  t.is(await table.locator('.table-facts').textContent(), 'partition by day · ts: ts');
  await table.locator('summary').click();
  await table.locator('.schema-column').first().waitFor();
  const columns = await table.locator('.schema-column').allTextContents();
  t.deepEqual(columns, ['tstimestampdesignated', 'symsymbol', 'pricedouble', 'qtylong']);
  await screenshot('schema');

  await runWithKeyboard("insert into trades select timestamp_sequence('2024-01-01', 60000000L), rnd_symbol('A','B','C'), rnd_double() * 100, x from long_sequence(300);");
  t.regex((await page.locator('#status').textContent()) ?? '', /^DML OK/);
});

/** Pixels of the chart canvas that something was drawn on (alpha > 0). */
async function paintedPixels(): Promise<number> {
  const painted: unknown = await page.evaluate(`(() => {
    const canvas = document.querySelector('#chart canvas');
    const context = canvas === null ? null : canvas.getContext('2d');
    if (context === null) return 0;
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let index = 3; index < pixels.length; index += 4) if (pixels[index] > 0) painted++;
    return painted;
  })()`);
  return typeof painted === 'number' ? painted : 0;
}

test.serial('a result with a timestamp column is charted, one series per symbol, as lines and as bars', async (t) => {
  await runWithKeyboard('select ts, sym, price from trades;');
  await page.locator('#tab-chart').click();
  await page.locator('#chart canvas').waitFor();
  const legend = await page.locator('#chart .u-legend .u-series .u-label').allTextContents();
  t.deepEqual(legend.slice(1).sort(), ['A', 'B', 'C']);
  const linePixels = await paintedPixels();
  t.true(linePixels > 2000, `painted pixels: ${linePixels}`);
  await screenshot('chart-line');

  await page.locator('#chart-kind').selectOption('bar');
  await page.waitForFunction(`document.querySelectorAll('#chart canvas').length === 1`);
  const barPixels = await paintedPixels();
  t.true(barPixels > 2000, `painted pixels: ${barPixels}`);
  t.not(barPixels, linePixels);
  await screenshot('chart-bar');
  await page.locator('#tab-grid').click();
});

function weatherCsv(rows: number): string {
  const lines = ['ts,city,temperature'];
  for (let index = 0; index < rows; index++) {
    lines.push(`${new Date(Date.UTC(2024, 0, 1) + index * 3_600_000).toISOString()},${['Oslo', 'Lima', 'Pune'][index % 3]},${(index % 40) - 10.5}`);
  }
  return `${lines.join('\n')}\n`;
}

test.serial('a CSV chosen with the file input is imported with a progress bar and its JSON report', async (t) => {
  await page.locator('#import-timestamp').fill('ts');
  await page.locator('#import-file').setInputFiles({ name: 'weather.csv', mimeType: 'text/csv', buffer: Buffer.from(weatherCsv(1000)) });
  const summary = page.locator('#import-summary.ok');
  await summary.waitFor();
  t.is(await summary.textContent(), 'Imported 1,000 rows into weather (0 rejected)');
  t.is(await page.locator('#import-progress').getAttribute('value'), '1');
  const report: unknown = JSON.parse((await page.locator('#import-report').textContent()) ?? '');
  t.like(report, { status: 'OK', location: 'weather', rowsImported: 1000, rowsRejected: 0, partitionBy: 'DAY' });
  await page.locator('details[data-table="weather"]').waitFor();
  await screenshot('import');

  await runWithKeyboard('select count() from weather;');
  t.deepEqual(await gridColumn(0), ['1000']);
});

test.serial('a CSV dropped on the import panel is imported too', async (t) => {
  await page.locator('#import-timestamp').fill('');
  // A drop carries a DataTransfer built in the page, as the browser builds one for a file dragged from the desktop.
  await page.evaluate(`(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['a,b\\n1,2\\n3,4\\n5,6\\n'], 'pairs.csv', { type: 'text/csv' }));
    const zone = document.querySelector('#import-drop');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  })()`);
  await page.locator('#import-summary.ok', { hasText: 'pairs' }).waitFor();
  t.is(await page.locator('#import-summary').textContent(), 'Imported 3 rows into pairs (0 rejected)');
  await page.locator('details[data-table="pairs"]').waitFor();
  t.false(await page.locator('#import-drop').evaluate((zone) => zone.classList.contains('dragging')));
});

async function download(button: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
  const path = await file.path();
  return readFileSync(path);
}

test.serial('the statement under the cursor downloads as CSV and as Parquet', async (t) => {
  await setEditorText('select ts, sym, qty from trades where qty <= 5;');
  const csv = (await download('#export-csv')).toString('utf8').trim().split(/\r?\n/);
  t.is(csv[0], '"ts","sym","qty"');
  t.is(csv.length, 6);
  t.regex(csv[1] ?? '', /^"2024-01-01T00:00:00\.000000Z","[ABC]",1$/);

  const parquet = await download('#export-parquet');
  t.is(parquet.subarray(0, 4).toString('latin1'), 'PAR1');
  const reader = await ParquetReader.open();
  try {
    const path = reader.save('export.parquet', parquet);
    const read = await reader.rows(`select qty from read_parquet('${path}') order by ts`);
    t.deepEqual(read.map((row) => Number(row['qty'])), [1, 2, 3, 4, 5]);
  } finally {
    reader.close();
  }

  await setEditorText('select nope from trades;');
  await page.locator('#export-csv').click();
  await page.locator('#status.error', { hasText: 'Invalid column: nope' }).waitFor();
  t.pass();
});

test.serial('an index.html in the root public/ directory replaces the bundled console', async (t) => {
  const bundled = await getJson(`${server.baseUrl}/`);
  t.regex(bundled.text, /<title>svc console<\/title>/);
  const custom = join(server.rootDir, 'public', 'index.html');
  writeFileSync(custom, '<!doctype html><title>own console</title>');
  try {
    const replaced = await getJson(`${server.baseUrl}/`);
    t.is(replaced.status, 200);
    t.is(replaced.text, '<!doctype html><title>own console</title>');
  } finally {
    rmSync(custom);
  }
  t.is((await getJson(`${server.baseUrl}/no-such-file.js`)).status, 404);
});

test.serial('when the API answers 401, the sign-in form sends the entered credentials as basic auth', async (t) => {
  // The server of this test has no authentication; a route answers 401 (as the auth gate does once the
  // browser's own prompt was dismissed) to requests without credentials and passes the others through.
  const other = await page.context().newPage();
  const sent: string[] = [];
  await other.route((url) => url.pathname === '/exec', async (route) => {
    const authorization = route.request().headers()['authorization'];
    if (authorization === undefined) {
      await route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"Unauthorized","code":"SVC_AUTH_REQUIRED"}' });
      return;
    }
    sent.push(authorization);
    await route.continue();
  });
  try {
    await other.goto(`${server.baseUrl}/`);
    const dialog = other.locator('dialog#login');
    await dialog.waitFor();
    await dialog.locator('input[name="user"]').fill('admin');
    await dialog.locator('input[name="password"]').fill('pässword');
    await dialog.locator('button[value="login"]').click();
    await other.locator('details[data-table="trades"]').waitFor();
    t.is(sent[0], `Basic ${Buffer.from('admin:pässword', 'utf8').toString('base64')}`);
    await other.screenshot({ path: join(artifactsDir, 'console-signed-in.png') });
    await other.locator('#sign-out').click();
    t.true(await other.locator('#sign-out').isHidden());
  } finally {
    await other.close();
  }
});

test.serial('with basic auth on, the page is challenged and the credentials given to the browser prompt let the console load and query', async (t) => {
  const user = 'console';
  const password = 'pa:ss word';
  const secured = await startServer({ workers: 1, env: { SVC_HTTP_USER: user, SVC_HTTP_PASSWORD: password } });
  // httpCredentials answers the WWW-Authenticate challenge as a user answers the browser's prompt.
  const signedIn = await browser.newContext({ httpCredentials: { username: user, password }, viewport: { width: 1400, height: 900 } });
  try {
    // The challenge that makes a browser prompt (headless Chromium without credentials fails the navigation).
    const refused = await getJson(`${secured.baseUrl}/`);
    t.is(refused.status, 401);
    t.regex(refused.headers.get('www-authenticate') ?? '', /^Basic realm=/);

    const securedPage = await signedIn.newPage();
    securedPage.setDefaultTimeout(stepTimeoutMs);
    await securedPage.goto(`${secured.baseUrl}/`);
    await securedPage.locator('#schema .empty').waitFor();
    await securedPage.locator('.cm-content').click();
    await securedPage.keyboard.press('ControlOrMeta+A');
    await securedPage.keyboard.insertText('select x from long_sequence(3);');
    await securedPage.keyboard.press('ControlOrMeta+Enter');
    await securedPage.locator('.pager-range', { hasText: 'rows 1–3 of 3' }).waitFor();
    t.deepEqual(await securedPage.locator('table.grid tbody td').allTextContents(), ['1', '2', '3']);
    t.true(await securedPage.locator('dialog#login').isHidden());
    await securedPage.screenshot({ path: join(artifactsDir, 'console-basic-auth.png') });
  } finally {
    await signedIn.close();
    await secured.stop();
    secured.cleanup();
  }
});
