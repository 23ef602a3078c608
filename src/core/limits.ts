// Every fixed bound of the service in one place; units and qualifiers come last in each name.

/** Rows per ColumnBatch flowing between operators. */
export const batchRowsMax = 65536;
/** Deepest expression or statement nesting the parser accepts before failing with an error. */
export const exprDepthMax = 200;
/** Longest statement text, in UTF-16 code units. */
export const queryTextLengthMax = 1 << 20;
/** Requests a worker may have waiting on the primary at once. */
export const ipcInFlightMax = 1024;
/** Requests or replies one IPC message carries: those gathered in one turn of the event loop go in messages of this many. */
export const ipcBatchEntriesMax = 256;
/** How long a worker waits for the primary to answer a write request. */
export const ipcTimeoutMs = 600_000;
/**
 * setTimeout's largest delay (2^31 - 1 ms, about 24.8 days): Node fires a longer one after 1 ms, so a timer for a
 * longer Statement-Timeout (the header allows any number) is set to this.
 */
export const timerDelayMsMax = 2_147_483_647;
/** Rows one INSERT ... VALUES may carry. */
export const insertValuesRowsMax = 1_000_000;
/**
 * Memory the primary keeps for the transient arrays of its write turns (core/turn-memory.ts): staged ILP reads,
 * a group's concatenated rows, order keys, permutations, gathered columns. A turn that needs more gets fresh
 * memory for the rest. Only what turns touch is resident (given back after turnMemoryIdleMs). 128 MiB was too
 * small for a tick's group of 8 TCP connections (8 units of up to 16 MB parsed, their copies and a merge's
 * reads): the rest came fresh, 4,000-20,000 page faults per 1M rows; at 512 MiB runs after the first took 2-22.
 */
export const turnMemoryBytesMax = 512 * 1024 * 1024;
/**
 * Time without a write turn after which the primary gives that memory back. Ingest often comes in periodic
 * batches (agents flushing every 10-60 s); memory given back after 10 s was faulted in again by every such
 * batch: 1M rows over HTTP every 12 s cost the server 0.59-0.61 CPU s and 4,900-5,400 page faults a batch,
 * every 5 s 0.51-0.56 s and 2,500-2,800. The ILP kept memory of the workers waits as long.
 */
export const turnMemoryIdleMs = 60_000;
/** WAL segment size after which the writer starts a new segment once everything is applied. */
export const walSegmentBytesMax = 64 * 1024 * 1024;
/** Delay before an unpinned old partition version is deleted, so readers that listed it can still map it. */
export const partitionVersionGraceMs = 10_000;
/** Backoff bounds for restarting a dead worker. */
export const workerRestartBackoffMinMs = 100;
export const workerRestartBackoffMaxMs = 10_000;
/** How long shutdown waits for in-flight requests before closing connections. */
export const shutdownDrainMs = 10_000;
/** Rows written per chunk while loading INSERT ... SELECT results into the writer. */
export const insertSelectChunkRowsMax = 1_048_576;
/** Candidate (target row, source row) pairs one partition of an UPDATE ... FROM may examine. */
export const updateJoinPairsMax = 50_000_000;
/** Rows SAMPLE BY ... FILL may produce (buckets × keys); a wider fill fails instead of exhausting memory. */
export const sampleFillRowsMax = 20_000_000;

/** Longest text a padding function (lpad, rpad) may build, in UTF-16 code units; past V8's string limit it would throw. */
export const paddedTextLengthMax = 1 << 24;
/** Rows of an adopted import partition whose SYMBOL text is read and resolved to keys at a time. */
export const adoptSymbolRowsMax = 1_048_576;
/**
 * Longest an INSERT group's turn waits for as many statements as the previous group held (commit-group.ts): a
 * bound on the latency concurrent clients may pay so that one _txn publication serves all of them.
 */
export const insertGroupFillWaitMsMax = 10;
/** ILP requests the primary holds waiting for its next group commit; more are refused with 503 (clients retry). */
export const ilpPendingRequestsMax = 512;
/** ILP requests being parsed the primary keeps the announcement of; later ones are not waited for. */
export const ilpAnnouncementsMax = 1024;
/** Tables a worker remembers the last ILP commit unit's row count of, to size the next unit's column builders. */
export const ilpRowsHintTablesMax = 1024;
/**
 * Memory a worker keeps for the column builders of its next ILP requests (ilp/builder-memory.ts): several
 * concurrent requests of 50,000 narrow rows each fit.
 */
export const ilpBuilderPoolBytesMax = 64 * 1024 * 1024;
/** Time without an ILP request after which a worker gives that memory back (see turnMemoryIdleMs). */
export const ilpBuilderPoolIdleMs = 60_000;
/**
 * Staged files a process keeps for its next ILP requests (ilp/staged-file-pool.ts): one per request or TCP
 * connection committing at once; a file given back past this many is deleted.
 */
export const ilpStagedFilesMax = 16;
/** Time without an ILP request after which a process deletes the staged files it keeps (see turnMemoryIdleMs). */
export const ilpStagedFilesIdleMs = 60_000;
/** Tables one ILP request (or one TCP commit) may write. */
export const ilpTablesPerRequestMax = 1000;
/** Longest key id line a TCP client may send to start ECDSA authentication (QuestDB bounds it by its receive buffer). */
export const ilpTcpKeyIdBytesMax = 1024;
/**
 * Parsed bytes at which an ILP TCP connection with no commit in flight commits without waiting for the tick
 * (line.tcp.max.uncommitted.size, when smaller, takes its place). A connection under sustained load then keeps
 * one unit in flight while it parses the next, so the workers' parsing overlaps the primary's commits. With
 * only the 16 MB bound, 8 connections sharing 4M narrow rows each parsed its whole share before the first
 * tick: the primary idled, then committed everything at the tick, and the load ran at 1.5-1.9M rows/s; with
 * this 2 MiB (75,000 narrow rows, 16,000 TSBS rows) it ran at 3.1-3.7M. Senders below 2 MiB per interval
 * (about 75,000 narrow rows/s per connection) still commit on the shared tick.
 */
export const ilpTcpEarlyCommitBytes = 2 * 1024 * 1024;
/** Backoff bounds between retries of a TCP connection's commit that the primary refused as overloaded (503). */
export const ilpTcpCommitRetryDelayMinMs = 20;
export const ilpTcpCommitRetryDelayMaxMs = 1000;
/**
 * How long after a TCP commit tick the primary waits at most for the units committed at that tick
 * (cluster/tick-gather.ts) before it commits them: every connection of every worker stages its unit at the
 * tick and sends it, and under load the second worker's units arrived 100-200 ms after the tick. One commit
 * for all of them is one out-of-order merge per tick instead of one per worker. The wait ends as soon as
 * every worker serving TCP connections has sent its units.
 */
export const ilpTcpTickGatherMs = 300;

/**
 * Bytes of rows the primary may hold back for one table from out-of-order TCP groups (engine/tcp-row-hold.ts):
 * a bound on memory (holding also stops past the rows of the newest partition). 8 connections sending 400,000
 * narrow rows/s with a 2 s lag hold about 800,000 rows, 25 MB.
 */
export const ilpTcpHeldBytesMax = 256 * 1024 * 1024;

/** Held TCP rows commit with the next group once they waited this many commit intervals. */
export const ilpTcpHeldAgeIntervals = 5;

/** Held TCP rows of a table that got no rows for this many commit intervals are committed. */
export const ilpTcpHeldQuietIntervals = 2;

/**
 * The one buffer every ILP TCP connection of a process reads into (ilp/shared-read-buffer.ts): the size of the
 * reads libuv asks for by default, so a read takes as much as it did with a buffer per read.
 */
export const ilpTcpReadBufferBytes = 64 * 1024;
/** TCP keep-alive probes (ILP and PG sockets) start after this much silence, so the OS finds peers that vanished without a FIN. */
export const tcpKeepAliveDelayMs = 60_000;
/** Refused TCP connections (over the connection limit) are logged at most once per this period, with a count. */
export const ilpTcpRefusalLogIntervalMs = 10_000;
/** ILP TCP or PG connections the primary holds while no worker is ready (start-up, every worker restarting). */
export const tcpDispatchQueueMax = 1024;
/** How long such a connection waits for a ready worker before it is closed (the client reconnects). */
export const tcpDispatchWaitMs = 10_000;
/** How long GET /warnings reuses its readings of the open-file limit, vm.max_map_count and free disk space. */
export const systemWarningsCacheMs = 5_000;

/**
 * Decoded Parquet partition columns kept per process across queries (bytes of storage-form values). A column
 * larger than this is decoded for its query and not kept.
 */
export const parquetDecodedCacheBytesMax = 512 * 1024 * 1024;
/** Runs of one side an out-of-order merge may take and still copy committed rows file to file (more: rows are merged in memory). */
export const o3MergeRunsMax = 32;
/** Compiled /exec queries kept per process for reuse (sql/plan-cache.ts), least recently used dropped first. */
export const planCacheEntriesMax = 128;
/** Longer statement texts are never cached: their keys and plans would hold memory for rare repeats. */
export const planCacheTextLengthMax = 4096;
/** Period of the connection rebalance: workers report busy connection counts, and each may be ordered to close some, at most this often. */
export const connectionRebalanceIntervalMs = 250;
/** A kept-alive connection counts as busy for this long after its last request started or ended (idle dashboards' sockets do not). */
export const connectionBusyWindowMs = 1000;
/** An order to close connections that found no request to answer within this time is dropped (what is left of it). */
export const connectionShedOrderTtlMs = 1000;
/**
 * A connection a worker closed to move it still counts as leaving that worker for this long: the client
 * reconnects at once, but the worker that accepts it reports it only at its next tick (one interval, more on a
 * loaded machine), and until then the primary would see one connection too few and shed again. Counting it on
 * both sides meanwhile only delays the next shed.
 */
export const connectionLeftWindowMs = 4 * connectionRebalanceIntervalMs;
