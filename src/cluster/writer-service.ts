// Primary side of writes: one queue, so statements apply one at a time in arrival order (the engine is
// single-threaded and every statement sees the previous commit). Errors come back as typed SvcErrors.
// Service-account statements go to the accounts file instead of the engine; their reply waits until every
// worker has the new token list, so a revoked token is refused everywhere once the statement has answered.
import type { Engine } from '../engine/engine.js';
import { executeWrite } from '../engine/write-executor.js';
import type { ImportCommitRequest, ImportCommitResult, WriteResult } from '../engine/writer-client.js';
import { commitImport } from '../engine/import-commit.js';
import * as fs from 'node:fs';
import { resolve, sep } from 'node:path';
import { stagingRoot } from '../storage/staging-segment.js';
import { SvcError } from '../core/errors.js';
import { parseStatement } from '../sql/compiler.js';
import type { ServiceAccounts } from '../http/auth/service-accounts.js';
import type { TokenEntry } from '../http/auth/token-registry.js';

/** Cheap test for a statement that may be a service-account one, so ordinary writes are not parsed twice. */
const SERVICE_ACCOUNT_HINT = /^[\s;]*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)[\s;]*)*(?:create|drop|alter)\s+service\s+account\b/i;

export interface AccountsBinding {
  readonly accounts: ServiceAccounts;
  /** Hands the new token list to every process serving HTTP; resolves once they all have it. */
  readonly publish: (entries: readonly TokenEntry[]) => Promise<void>;
}

export class WriterService {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly engine: Engine, private readonly accounts?: AccountsBinding) {}

  private enqueue<T>(work: () => T): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  executeWrite(sql: string, timeoutMs: number): Promise<WriteResult> {
    const accounts = this.accounts;
    if (accounts !== undefined && SERVICE_ACCOUNT_HINT.test(sql)) {
      const run = this.tail.then(() => applyAccountStatement(accounts, sql), () => applyAccountStatement(accounts, sql));
      this.tail = run.catch(() => undefined);
      return run;
    }
    return this.enqueue(() => executeWrite(this.engine, sql, { timeoutMs }));
  }

  /** Segment paths arrive over IPC: only directories under db/.staging/ are ever read or deleted. */
  private checkSegmentDir(segmentDir: string): void {
    if (!resolve(segmentDir).startsWith(stagingRoot(this.engine.dbDir) + sep)) throw new SvcError('SVC_IMPORT_FAILED', 'invalid staging segment path', 400);
  }

  importCommit(request: ImportCommitRequest): Promise<ImportCommitResult> {
    try {
      this.checkSegmentDir(request.segmentDir);
    } catch (error) {
      return Promise.reject(error);
    }
    const run = this.tail.then(() => commitImport(this.engine, request), () => commitImport(this.engine, request));
    this.tail = run.catch(() => undefined);
    return run;
  }

  importAbort(segmentDir: string): Promise<void> {
    this.checkSegmentDir(segmentDir);
    fs.rmSync(segmentDir, { recursive: true, force: true });
    return Promise.resolve();
  }

  /** Resolves when every queued statement has finished (used by shutdown). */
  idle(): Promise<void> {
    return this.tail.then(() => undefined, () => undefined);
  }
}

async function applyAccountStatement(binding: AccountsBinding, sql: string): Promise<WriteResult> {
  const statement = parseStatement(sql);
  if (statement.kind !== 'serviceAccount') throw new SvcError('SVC_SQL_SEMANTIC', 'not a service account statement', 400);
  const result = binding.accounts.apply(statement, Date.now());
  await binding.publish(binding.accounts.tokenEntries());
  return result;
}
