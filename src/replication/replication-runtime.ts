// Starts a server's replication role. A primary claims the store's writer lease before recovery (a second
// primary on the same store fails to start), finishes following first if this root was a replica (the
// promotion path: apply everything the old primary uploaded), then ships from the next free sequence
// number, starting with a checkpoint. A replica follows in the background and refuses every write.
import { hostname } from 'node:os';
import type { ServerConfig } from '../config/server-config.js';
import type { SvcError } from '../core/errors.js';
import { replicaRefusal } from './replica-refusal.js';
import { openObjectStore } from '../objectstore/open-object-store.js';
import type { ObjectStore } from '../objectstore/object-store.js';
import { claimWriter, type WriterHandle } from '../objectstore/writer-lease.js';
import { getLogger } from '../log/logger.js';
import { clearAppliedSeq, readAppliedSeq } from './applied-state.js';
import { ReplicaFollower } from './replica-follower.js';
import { ReplicationShipper } from './replication-shipper.js';
import { highestSeq } from './store-layout.js';
import type { ThreadStore } from './segment-encoder-messages.js';

const log = getLogger('replication');

export interface ReplicationStatus {
  readonly role: 'none' | 'primary' | 'replica';
  readonly uploadLagSeconds: number;
  readonly pendingBytes: number;
  readonly shippedSeq: number;
  readonly lagSeconds: number;
  readonly appliedSeq: number;
}

/** What runPrimary needs between recovery and serving. */
export interface ReplicationRuntime {
  readonly role: 'none' | 'primary' | 'replica';
  /** Replica: the error every write gets. */
  readonly writeRefusal: SvcError | undefined;
  /** Primary: start shipping once the writer service exists. */
  attachWriter(writer: { runTurn(work: () => void): Promise<void>; onTurnCompleted(listener: () => void): void }): Promise<void>;
  /** Replica: start following; `reloadAccounts` runs after the accounts file changed. */
  follow(reloadAccounts: () => void): void;
  status(): ReplicationStatus;
  /** A reason for health to answer 503 (replica lagging past replication.replica.max.lag), or undefined. */
  unhealthyReason(): string | undefined;
  close(): Promise<void>;
}

/** The store's connection string and the key it came from: the event loop and the shipping thread open it alike. */
function storeSettings(config: ServerConfig): ThreadStore {
  return { connection: config.replicationObjectStore ?? '', configKey: 'replication.object.store' };
}

function openStore(config: ServerConfig): Promise<ObjectStore> {
  const settings = storeSettings(config);
  return openObjectStore(settings.connection, { configKey: settings.configKey });
}

export async function prepareReplication(config: ServerConfig): Promise<ReplicationRuntime> {
  switch (config.replicationRole) {
    case 'none': return inactiveRuntime();
    case 'replica': return replicaRuntime(config);
    case 'primary': return primaryRuntime(config);
  }
}

function inactiveRuntime(): ReplicationRuntime {
  return {
    role: 'none', writeRefusal: undefined, attachWriter: () => Promise.resolve(), follow: () => undefined,
    status: () => ({ role: 'none', uploadLagSeconds: 0, pendingBytes: 0, shippedSeq: 0, lagSeconds: 0, appliedSeq: 0 }),
    unhealthyReason: () => undefined, close: () => Promise.resolve(),
  };
}

function replicaRuntime(config: ServerConfig): ReplicationRuntime {
  let follower: ReplicaFollower | undefined;
  return {
    role: 'replica', writeRefusal: replicaRefusal(config.replicationPrimaryUrl), attachWriter: () => Promise.resolve(),
    follow(reloadAccounts) {
      follower = new ReplicaFollower({ rootDir: config.rootDir, openStore: () => openStore(config), pollIntervalMs: config.replicationPollIntervalMs, onAccountsChanged: reloadAccounts });
      follower.start();
    },
    status() {
      const state = follower?.status();
      return { role: 'replica', uploadLagSeconds: 0, pendingBytes: 0, shippedSeq: 0, lagSeconds: state?.lagSeconds ?? 0, appliedSeq: state?.appliedSeq ?? 0 };
    },
    unhealthyReason() {
      const lag = follower?.status().lagSeconds ?? 0;
      return lag * 1000 > config.replicationMaxLagMs ? `Replica lag: ${lag.toFixed(1)}s (replication.replica.max.lag ${config.replicationMaxLagMs / 1000}s)` : undefined;
    },
    close: async () => follower?.stop(),
  };
}

async function primaryRuntime(config: ServerConfig): Promise<ReplicationRuntime> {
  const store = await openStore(config);
  const lease: WriterHandle = await claimWriter(store, '', `${hostname()}:${config.rootDir}`, {
    // The settle-and-read-back claim (stores without conditional PUT) must finish well inside one lease.
    leaseMs: config.replicationLeaseMs, settleMs: Math.min(2_000, Math.floor(config.replicationLeaseMs / 4)),
  });
  if (readAppliedSeq(config.rootDir) !== null) {
    const follower = new ReplicaFollower({ rootDir: config.rootDir, openStore: () => Promise.resolve(store), pollIntervalMs: config.replicationPollIntervalMs, onAccountsChanged: () => undefined });
    const applied = await follower.catchUp();
    clearAppliedSeq(config.rootDir);
    log.advisory(`promoted to primary after applying sequence ${applied} (writer lease generation ${lease.generation})`);
  }
  const firstSeq = (await highestSeq(store)) + 1;
  let shipper: ReplicationShipper | undefined;
  return {
    role: 'primary', writeRefusal: undefined, follow: () => undefined,
    async attachWriter(writer) {
      const started = new ReplicationShipper({
        rootDir: config.rootDir, store, lease, runTurn: (work) => writer.runTurn(work), firstSeq,
        checkpointIntervalMs: config.replicationCheckpointIntervalMs, backlogBytesMax: config.replicationBacklogBytesMax,
        lowPriority: config.replicationUploadPriority === 'low',
        threadStore: storeSettings(config),
      });
      shipper = started;
      writer.onTurnCompleted(() => started.noteTurnCompleted());
      await started.start();
    },
    status() {
      const state = shipper?.status();
      return { role: 'primary', uploadLagSeconds: state?.uploadLagSeconds ?? 0, pendingBytes: state?.pendingBytes ?? 0, shippedSeq: state?.shippedSeq ?? 0, lagSeconds: 0, appliedSeq: 0 };
    },
    unhealthyReason: () => undefined,
    async close() {
      shipper?.close();
      // A clean stop uploads what was committed, so a planned switch-over loses nothing.
      if (shipper !== undefined) await Promise.race([shipper.flush(), new Promise((resolve) => setTimeout(resolve, config.shutdownDrainTimeoutMs).unref())]);
      await shipper?.release();
      await lease.release().catch(() => undefined);
      await store.close();
    },
  };
}
