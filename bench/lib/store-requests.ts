// Requests the object store served for one store root, counted from the Swift proxy's access log (its state
// dir's log/proxy.log holds a line per client request): every request costs Swift's Python daemons CPU on
// the cores the primary ingests on, so the bench reports how many of each kind a run made, and the bytes
// the store received (PUT bodies: what replication uploaded, framing included). Lines are read
// from an offset taken before the run, and only those naming the run's root count (the store is shared).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Request kinds: a LIST, or a method and what it touched. */
export type StoreRequestCounts = Map<string, number>;

/** A run's requests by kind and the body bytes the store received for them. */
export interface StoreTraffic { readonly requests: StoreRequestCounts; readonly receivedBytes: number }

const LOG_PATH = join(process.env['S3_STATE_DIR'] ?? '/tmp/svc-s3', 'log', 'proxy.log');
/**
 * A client request's line: "svc-s3-proxy: <client> <remote> <date> <METHOD> <path> <protocol> <status>
 * <referer> <agent> <token> <bytes received> ..." (backend lines have "- -"; "-" for no bytes).
 */
const CLIENT_LINE = /^svc-s3-proxy: \d+\.\d+\.\d+\.\d+ \d+\.\d+\.\d+\.\d+ \S+ ([A-Z]+) (\S+) \S+ \S+ \S+ \S+ \S+ (\S+)/;

/** The log's size now: where the next run's lines start; -1 when there is no log. */
export function storeLogOffset(): number {
  return statSync(LOG_PATH, { throwIfNoEntry: false })?.size ?? -1;
}

function kindOf(method: string, path: string): string {
  // Paths are URL-encoded: a listing is the bucket with a list-type query.
  if (path.includes('list-type%3D')) return `LIST ${/segments/.test(path) ? 'segments' : /checkpoints/.test(path) ? 'checkpoints' : 'other'}`;
  const what = path.includes('/segments/') ? 'segment' : path.includes('/checkpoints/') ? 'checkpoint' : path.includes('/_writer/') ? 'lease' : 'other';
  return `${method} ${what}`;
}

/** Requests naming `root` logged since `offset` (storeLogOffset), by kind, and their bytes; none when there is no log. */
export function storeTrafficSince(offset: number, root: string): StoreTraffic {
  const counts: StoreRequestCounts = new Map();
  let receivedBytes = 0;
  const end = storeLogOffset();
  if (offset < 0 || end <= offset) return { requests: counts, receivedBytes };
  const bytes = Buffer.allocUnsafe(end - offset);
  const fd = openSync(LOG_PATH, 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
  for (const line of bytes.toString('utf8').split('\n')) {
    if (!line.includes(root)) continue;
    const match = CLIENT_LINE.exec(line);
    if (match === null) continue;
    const kind = kindOf(match[1] ?? '', match[2] ?? '');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    const received = Number(match[3]);
    if (Number.isFinite(received)) receivedBytes += received;
  }
  return { requests: counts, receivedBytes };
}

/** The root of an s3:: connection string (`root=...;`), which every key of the run starts with. */
export function storeRootOf(connection: string): string {
  const match = /(?:^|;)root=([^;]+)/.exec(connection.replace(/^s3::/, ''));
  if (match === null) throw new RangeError(`connection string has no root: ${connection}`);
  return match[1] ?? '';
}
