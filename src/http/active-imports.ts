// Uploads still streaming into a staging segment, so shutdown can roll them back at once instead of waiting
// for a client that may upload for hours. An import whose commit has reached the primary is no longer here:
// the primary finishes that commit before it exits.
export class ActiveImports {
  private readonly aborts = new Set<(reason: string) => void>();
  private closed = false;

  /** Registers an upload; returns its deregistration. After abortAll, new uploads are refused at once. */
  add(abort: (reason: string) => void): () => void {
    if (this.closed) {
      abort('server is shutting down');
      return () => undefined;
    }
    this.aborts.add(abort);
    return () => { this.aborts.delete(abort); };
  }

  get count(): number {
    return this.aborts.size;
  }

  /** Rolls back every upload in progress; returns how many there were. */
  abortAll(reason: string): number {
    this.closed = true;
    const aborts = [...this.aborts];
    this.aborts.clear();
    for (const abort of aborts) abort(reason);
    return aborts.length;
  }
}
