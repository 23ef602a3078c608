// A 200+ MB upload streamed through /imp: every row lands, and the server's peak memory stays flat (the upload
// is never held whole: it streams into a staging segment and commits in bounded chunks).
import test from 'ava';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer } from '../helpers/server.js';
import { rows } from '../helpers/http.js';
import { standardCsvChunks } from '../helpers/csv-stream.js';

/** Documented bound: no svc process may peak above this while importing any file size. */
const PEAK_RSS_BYTES_MAX = 700 * 1024 * 1024;
const ROWS = 5_000_000;

function peakRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match === null ? 0 : Number(match[1]) * 1024;
}

function svcPids(primary: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(primary)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return [primary, ...children];
}

test('a 200+ MB CSV streams in with flat memory', async (t) => {
  const server = await startServer({ workers: 2 });
  try {
    const boundary = '----svc-large-upload';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    let sentBytes = 0;
    const responseText = await new Promise<string>((resolve, reject) => {
      const req = request(`${server.baseUrl}/imp?name=big&timestamp=ts&partitionBy=DAY&fmt=json`, {
        method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' },
      }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => { body += chunk.toString('utf8'); });
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      const chunks = standardCsvChunks(ROWS);
      const pump = (): void => {
        for (;;) {
          const next = chunks.next();
          if (next.done === true) {
            req.end(tail);
            return;
          }
          sentBytes += next.value.length;
          if (!req.write(next.value)) {
            req.once('drain', pump);
            return;
          }
        }
      };
      req.write(head);
      pump();
    });
    t.true(sentBytes > 200 * 1024 * 1024, `sent ${sentBytes} bytes`);
    const report = JSON.parse(responseText) as { status: string; rowsImported: number };
    t.is(report.status, 'OK');
    t.is(report.rowsImported, ROWS);
    t.deepEqual(await rows(server.baseUrl, 'select count(*) from big'), [[ROWS]]);
    const peaks = svcPids(server.process.pid as number).map(peakRssBytes);
    for (const peak of peaks) t.true(peak < PEAK_RSS_BYTES_MAX, `peak RSS ${(peak / 1048576).toFixed(0)} MB`);
    t.log(`peak RSS per process (MB): ${peaks.map((peak) => (peak / 1048576).toFixed(0)).join(', ')}`);
  } finally {
    await server.stop();
    server.cleanup();
  }
});
