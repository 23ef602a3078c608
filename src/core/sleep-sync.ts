// Blocks the calling thread for a few milliseconds: only for short waits on paths that are synchronous by contract
// (a retry inside a synchronous file read), where yielding to the event loop is not possible.
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
