// Whether a promise has settled, asked without waiting on a clock: tests of gathering and grouping assert what
// is still waiting after the callbacks already queued have run, not how long something took.

/** Whether `promise` has settled (fulfilled or rejected) once the callbacks queued in this turn have run. */
export function isSettled(promise: Promise<unknown>): Promise<boolean> {
  const later = new Promise<boolean>((resolve) => setImmediate(() => resolve(false)));
  return Promise.race([promise.then(() => true, () => true), later]);
}
