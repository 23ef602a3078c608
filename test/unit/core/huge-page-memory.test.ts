// Huge-page memory for the kept buffers: a Buffer of exactly the size asked, zeroed and writable, in a mapping of
// its own that starts on a 2 MiB boundary and carries the kernel's huge-page advice (VmFlags `hg` in
// /proc/self/smaps, where the kernel has transparent huge pages); bad sizes are refused; a kept buffer of the
// primary's turn memory is such memory.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { hugePageBuffer } from '../../../src/core/huge-page-memory.js';
import { nativeBinding } from '../../../src/core/native-binding.js';
import { TurnMemory } from '../../../src/core/turn-memory.js';
import { manualClock } from '../../helpers/manual-clock.js';

const HUGE_PAGE_BYTES = 2 << 20;
const KIB = 1024;
/** Every buffer a test allocates stays referenced, so no collection unmaps one while another test counts mappings. */
const keptAlive: Buffer[] = [];

function kept(buffer: Buffer): Buffer {
  keptAlive.push(buffer);
  return buffer;
}

/** The mappings of this process as smaps lists them: start address, size in KiB, VmFlags. */
function mappings(): { start: bigint; sizeKib: number; flags: string[] }[] {
  const found: { start: bigint; sizeKib: number; flags: string[] }[] = [];
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-[0-9a-f]+ /.exec(line);
    if (range !== null) found.push({ start: BigInt(`0x${range[1] ?? '0'}`), sizeKib: 0, flags: [] });
    const last = found[found.length - 1];
    if (last === undefined) continue;
    const size = /^Size:\s+(\d+) kB/.exec(line);
    if (size !== null) last.sizeKib = Number(size[1]);
    if (line.startsWith('VmFlags:')) last.flags = line.slice('VmFlags:'.length).trim().split(/\s+/);
  }
  return found;
}

/** Whether this kernel has transparent huge pages at all (without them the advice is refused and ignored). */
const kernelHasHugePages = existsSync('/sys/kernel/mm/transparent_hugepage/enabled');

test('a huge-page buffer has the size asked, is zeroed and writable, and holds what is written', (t) => {
  const bytes = 3 * HUGE_PAGE_BYTES + 12_345;
  const buffer = kept(hugePageBuffer(bytes));
  t.is(buffer.length, bytes);
  t.true(buffer.every((byte) => byte === 0));
  buffer.fill(0xa5, 0, HUGE_PAGE_BYTES + 7);
  buffer.writeDoubleLE(Math.PI, bytes - 8);
  t.is(buffer[HUGE_PAGE_BYTES + 6], 0xa5);
  t.is(buffer[HUGE_PAGE_BYTES + 7], 0);
  t.is(buffer.readDoubleLE(bytes - 8), Math.PI);
  t.is(buffer.byteOffset % 8, 0, 'typed views of any width fit on it');
});

/**
 * The mappings carrying the huge-page advice (a Node process has none of its own). Adjacent ones with the same
 * flags may be merged by the kernel into one, which then starts where the lower one did.
 */
function advisedMappings(): { start: bigint; sizeKib: number }[] {
  return mappings().filter((mapping) => mapping.flags.includes('hg'));
}

/** KiB of memory advised for huge pages in this process. */
function advisedKib(): number {
  return advisedMappings().reduce((sum, mapping) => sum + mapping.sizeKib, 0);
}

test('a huge-page buffer lies in memory advised for huge pages, starting on a 2 MiB boundary', (t) => {
  if (!kernelHasHugePages) {
    t.log('this kernel has no transparent huge pages: the advice is refused and the memory is plain anonymous memory');
  }
  const sizes = [5 * HUGE_PAGE_BYTES + 4096, 7 * HUGE_PAGE_BYTES + 8192];
  const buffers = sizes.map((bytes) => kept(hugePageBuffer(bytes)));
  buffers.forEach((buffer) => buffer.fill(1));
  if (!kernelHasHugePages) {
    t.deepEqual(buffers.map((buffer) => buffer.length), sizes);
    return;
  }
  const advised = advisedMappings();
  t.true(advised.length > 0, 'a mapping carries the huge-page advice');
  t.true(advised.every((mapping) => mapping.start % BigInt(HUGE_PAGE_BYTES) === 0n), 'every advised mapping starts on a huge-page boundary');
  const kib = advisedKib();
  t.true(kib * KIB >= sizes[0] + sizes[1], `the advised mappings (${kib} kB) hold both buffers`);
});

test('sizes that are not whole positive numbers are refused', (t) => {
  const binding = nativeBinding();
  t.throws(() => binding.allocateHugePages(0), { instanceOf: RangeError, message: /sizeBytes must be a whole number/ });
  t.throws(() => binding.allocateHugePages(1.5), { instanceOf: RangeError });
  t.throws(() => binding.allocateHugePages(Number('x')), { instanceOf: RangeError });
  t.throws(() => (binding.allocateHugePages as (value: unknown) => Buffer)('8'), { instanceOf: TypeError, message: /sizeBytes must be a number/ });
});

test('the turn memory keeps its buffer in huge-page memory', (t) => {
  const clock = manualClock();
  const bytesMax = 9 * HUGE_PAGE_BYTES + 4096;
  const memory = new TurnMemory({ bytesMax, idleMs: 60_000, nowMs: clock.nowMs, schedule: clock.schedule });
  const before = advisedKib();
  memory.scope(() => kept(memory.bytes(100)).fill(3));
  t.is(memory.keptBytes, bytesMax);
  if (!kernelHasHugePages) return;
  const after = advisedKib();
  t.is((after - before) * KIB, bytesMax, 'the kept buffer is advised memory of the bound\'s size');
});
