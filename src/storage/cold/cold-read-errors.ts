// The errors a query meets on the cold read path. Each names the table, the partition and (when one is
// involved) the store, so an operator can tell which data could not be read from where.
import { SvcError } from '../../core/errors.js';

/** What a cold object is, for error texts and chunk identity. */
export interface ColdObject {
  readonly table: string;
  readonly partition: string;
  /** Key relative to the store root, as the manifest names it. */
  readonly key: string;
  /** The version the manifest pinned; a read of any other version fails. */
  readonly etag: string;
  readonly sizeBytes: number;
}

export class ColdReadError extends SvcError {
  constructor(message: string) {
    super('SVC_COLD_READ', message, 503);
    this.name = 'ColdReadError';
  }
}

export class ColdBackPressureError extends SvcError {
  constructor(message: string) {
    super('SVC_COLD_BACKPRESSURE', message, 503);
    this.name = 'ColdBackPressureError';
  }
}

export function describeColdObject(object: ColdObject): string {
  return `table=${object.table}, partition=${object.partition}, key=${object.key}`;
}

/** A failed download or wait, as the query sees it: the partition and the store's own text (which names the store). */
export function coldReadFailed(object: ColdObject, cause: string): ColdReadError {
  return new ColdReadError(`could not read cold partition [${describeColdObject(object)}]: ${cause}`);
}
