// The one answer a read replica gives every write (HTTP 403, SVC_FORBIDDEN), naming the primary when
// replication.primary.url is set. Workers refuse /imp and /write with it before reading the body; the
// primary process refuses everything else that reaches its writer (/exec DDL and DML, ILP over TCP, PG wire).
import { SvcError } from '../core/errors.js';

export function replicaRefusal(primaryUrl: string | null): SvcError {
  const where = primaryUrl === null ? '' : `; send writes to the primary at ${primaryUrl}`;
  return new SvcError('SVC_FORBIDDEN', `this server is a read-only replica${where}`, 403);
}
