// Memory for the large buffers a process keeps and reuses (the primary's turn memory, the TCP hold's rows,
// replication's scratch): anonymous memory the kernel may back with 2 MiB transparent huge pages. Why: the first
// touch of every 4 KiB page of a fresh buffer is a page fault, and in the virtual machines svc is measured on
// one costs about 15 µs. A write turn of the primary that needs more of its kept buffer than any turn before
// touched tens of thousands of pages: 8 ILP TCP connections backfilling 4M rows took 10,000-26,000 page faults
// in the primary, up to 0.6 s of system time, and ran at 2.4-4.4M rows/s; with huge pages 50-2,800 faults, and
// ten such probes ran at 3.0-4.7M rows/s (median 4.1M). Where transparent huge pages are off, or the kernel has
// none, this is plain anonymous memory, faulted in 4 KiB pages as before.
import { nativeBinding } from './native-binding.js';

/**
 * A zeroed Buffer of `bytes` (at least 1) starting on a huge-page boundary, advised for huge pages. Its memory is
 * released when the Buffer is collected (and counted by V8 until then, as an ArrayBuffer's would be). Only what
 * is touched becomes resident, in 2 MiB steps where huge pages are granted.
 */
export function hugePageBuffer(bytes: number): Buffer {
  return nativeBinding().allocateHugePages(bytes);
}
