// Which compression replication segments should use, measured where it costs: the primary's CPU to compress
// plus the CPU the store (Swift, on the same cores) spends receiving the bytes. The input is the column files
// of BENCH_ROWS (default 1,000,000) standard ILP rows written by a real server, cut into segment-sized chunks
// (4 MiB, about what a 500 ms capture holds under ingest). Per codec, alternated over BENCH_ROUNDS rounds (best
// kept): compression CPU seconds, bytes, the CPU of our PUTs (signing, SHA-256, socket writes), of the
// store's daemons (from /proc; the store may be shared, so the minimum over rounds is the fair figure) and of
// a replica's decompression.
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, deflateRawSync, inflateRawSync, constants as zlibConstants } from 'node:zlib';
import { startServer } from '../../test/helpers/server.js';
import { sharedS3 } from '../../test/helpers/s3-service.js';
import { openObjectStore } from '../../src/objectstore/open-object-store.js';
import { ilpBodies, standardIlpRow } from '../lib/ilp-bodies.js';

const rowCount = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CHUNK_BYTES = 4 * 1024 * 1024;

type Codec = { readonly name: string; readonly compress: (raw: Buffer) => Buffer; readonly decompress: (object: Buffer) => Buffer };
const brotli = (quality: number) => (raw: Buffer): Buffer => brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
const codecs: readonly Codec[] = [
  { name: 'brotli q1', compress: brotli(1), decompress: (object) => brotliDecompressSync(object) },
  { name: 'brotli q0', compress: brotli(0), decompress: (object) => brotliDecompressSync(object) },
  { name: 'deflate 1', compress: (raw) => deflateRawSync(raw, { level: 1 }), decompress: (object) => inflateRawSync(object) },
  { name: 'none', compress: (raw) => raw, decompress: (object) => object },
  // Decoding would also unshuffle (not written here): its decompress figure is a lower bound.
  { name: 'shuffle8 + brotli q1', compress: (raw) => brotli(1)(shuffle8(raw)), decompress: (object) => brotliDecompressSync(object) },
  { name: 'shuffle8 + deflate 1', compress: (raw) => deflateRawSync(shuffle8(raw), { level: 1 }), decompress: (object) => inflateRawSync(object) },
];

/** Byte planes of 8-byte words (byte 0 of every word, then byte 1...): the high bytes of small values line up. */
function shuffle8(raw: Buffer): Buffer {
  const words = Math.floor(raw.length / 8);
  const out = Buffer.allocUnsafe(raw.length);
  for (let plane = 0; plane < 8; plane++) {
    const base = plane * words;
    for (let word = 0; word < words; word++) out[base + word] = raw[word * 8 + plane] as number;
  }
  raw.copy(out, words * 8, words * 8);
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]);
}

/** The db/ files of a server that took the rows by ILP, concatenated and cut into chunks. */
async function columnChunks(): Promise<Buffer[]> {
  const server = await startServer({ workers: 1 });
  try {
    for (const body of ilpBodies(rowCount, 10_000, (i) => standardIlpRow(i))) {
      const response = await fetch(`${server.baseUrl}/write`, { method: 'POST', body });
      if (response.status !== 204) throw new Error(`ILP → ${response.status}`);
    }
    await server.stop();
    // What replication ships: table files other than the WAL's.
    const files = filesUnder(join(server.rootDir, 'db')).filter((path) => !path.includes('/wal/') && statSync(path).size > 64 * 1024);
    const all = Buffer.concat(files.map((path) => readFileSync(path)));
    const chunks: Buffer[] = [];
    for (let at = 0; at < all.length; at += CHUNK_BYTES) chunks.push(all.subarray(at, at + CHUNK_BYTES));
    return chunks;
  } finally {
    await server.stop();
    server.cleanup();
  }
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

function storeCpuSeconds(): number {
  const runDir = join(process.env['S3_STATE_DIR'] ?? '/tmp/svc-s3', 'run');
  return readdirSync(runDir).filter((name) => name.endsWith('.pid')).reduce((sum, name) => {
    const fields = readFileSync(`/proc/${readFileSync(join(runDir, name), 'utf8').trim()}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return sum + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);
}

interface Figures { compressSeconds: number; bytes: number; putSeconds: number; storeSeconds: number; decompressSeconds: number }

async function main(): Promise<void> {
  const chunks = await columnChunks();
  const rawBytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const s3 = await sharedS3();
  const store = await openObjectStore(`s3::bucket=svc-compress-bench-${randomBytes(4).toString('hex')};root=c;region=${s3.region};endpoint=${s3.endpoint};access_key_id=${s3.accessKey};secret_access_key=${s3.secretKey};`);
  const best = new Map<string, Figures>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const codec of codecs) {
        const compressStart = process.cpuUsage();
        const objects = chunks.map((chunk) => codec.compress(chunk));
        const compressSeconds = cpuSecondsSince(compressStart);
        const putStart = process.cpuUsage();
        const storeStart = storeCpuSeconds();
        for (const [index, object] of objects.entries()) await store.put(`${codec.name.replace(' ', '-')}/${round}/${index}`, object);
        const putSeconds = cpuSecondsSince(putStart);
        const storeSeconds = storeCpuSeconds() - storeStart;
        const decompressStart = process.cpuUsage();
        for (const object of objects) codec.decompress(object);
        const figures = { compressSeconds, bytes: objects.reduce((sum, object) => sum + object.length, 0), putSeconds, storeSeconds, decompressSeconds: cpuSecondsSince(decompressStart) };
        const known = best.get(codec.name);
        best.set(codec.name, known === undefined ? figures : {
          compressSeconds: Math.min(known.compressSeconds, figures.compressSeconds), bytes: figures.bytes,
          putSeconds: Math.min(known.putSeconds, figures.putSeconds), storeSeconds: Math.min(known.storeSeconds, figures.storeSeconds),
          decompressSeconds: Math.min(known.decompressSeconds, figures.decompressSeconds),
        });
      }
    }
  } finally {
    await store.close();
  }
  const perMillion = 1e6 / rowCount;
  process.stdout.write([
    `\nSegment compression: ${(rawBytes / 1e6).toFixed(1)} MB of column files from ${rowCount} standard ILP rows, ${chunks.length} chunks of ≤ 4 MiB, best of ${rounds} rounds, CPU seconds per 1M rows`,
    '| codec | compress | MB | ratio | PUTs (svc) | store (Swift) | primary + store | replica decompress |', '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...codecs.map((codec) => {
      const f = best.get(codec.name) ?? { compressSeconds: Number.NaN, bytes: Number.NaN, putSeconds: Number.NaN, storeSeconds: Number.NaN, decompressSeconds: Number.NaN };
      const total = f.compressSeconds + f.putSeconds + f.storeSeconds;
      return `| ${codec.name} | ${(f.compressSeconds * perMillion).toFixed(3)} | ${(f.bytes * perMillion / 1e6).toFixed(1)} | ${(rawBytes / f.bytes).toFixed(2)} | ${(f.putSeconds * perMillion).toFixed(3)} | ${(f.storeSeconds * perMillion).toFixed(3)} | ${(total * perMillion).toFixed(3)} | ${(f.decompressSeconds * perMillion).toFixed(3)} |`;
    }),
  ].join('\n') + '\n');
}

await main();
