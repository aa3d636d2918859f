import { StartupError } from '../../errors/index.ts';
import type { AppLogger } from '../../logging/app-log.ts';
import type { DocumentStore } from '../document-store.ts';
import type { SlidingWindowStore } from '../sliding-window.ts';
import { RedisNoticeBus } from './redis-bus.ts';
import type { RedisConnection } from './redis-connection.ts';
import { RedisDocumentStore } from './redis-document.ts';
import { RedisLeaseStore } from './redis-leases.ts';
import { RedisRecordStore } from './redis-records.ts';
import { RedisSlidingWindowStore } from './redis-windows.ts';
import type { BackendStatus, DocumentOptions, StateBackend } from './state-backend.ts';

/**
 * STATE_BACKEND=redis://...: every kind of shared state in one Redis 7 or Valkey 8 server, under one
 * key prefix. Fails closed: each operation throws StateStoreUnavailableError while the store cannot be
 * reached, and the connection comes back on its own.
 */
export class RedisBackend implements StateBackend {
  readonly kind = 'redis' as const;
  readonly windows: SlidingWindowStore;
  readonly records: RedisRecordStore;
  readonly bus: RedisNoticeBus;
  readonly leases: RedisLeaseStore;
  private heartbeat: NodeJS.Timeout | undefined;
  private claimed: string | undefined;
  private readonly documents: { close(): void }[] = [];
  /** Told when a shared document's stored value is not taken (corrupt or invalid; the last good copy is kept). */
  onDocumentProblem?: (name: string, problem: string) => void;

  constructor(
    readonly conn: RedisConnection,
    readonly instance: string,
  ) {
    this.windows = new RedisSlidingWindowStore(conn.client, conn.key('w:'), instance);
    this.records = new RedisRecordStore(conn);
    this.bus = new RedisNoticeBus(conn);
    this.leases = new RedisLeaseStore(conn, instance);
  }

  async document<T>(name: string, opts: DocumentOptions<T>): Promise<DocumentStore<T>> {
    const doc = await RedisDocumentStore.open(this.conn, name, opts, {
      onProblem: (problem) => this.onDocumentProblem?.(name, problem),
    });
    this.documents.push(doc);
    return doc;
  }

  assertAvailable(): void {
    this.conn.assertAvailable();
  }

  status(): BackendStatus {
    return this.conn.status();
  }

  /**
   * Claims `instance:<name>` for this process and keeps it with a heartbeat. A claim held by another
   * process is waited on for one lease time (a crashed instance's claim lapses by then); one that is
   * still renewed after that belongs to a running instance, and the start is refused.
   */
  async claimInstance(ttlMs: number, log: AppLogger): Promise<void> {
    const lease = `instance:${this.instance}`;
    const deadline = Date.now() + ttlMs + 1000;
    while (!(await this.leases.acquire(lease, ttlMs))) {
      if (Date.now() >= deadline)
        throw new StartupError(
          `INSTANCE_ID ${this.instance} is in use by another running instance (give each instance its own INSTANCE_ID)`,
        );
      await new Promise((r) => setTimeout(r, Math.min(1000, ttlMs / 4)));
    }
    this.claimed = lease;
    let warned = false;
    this.heartbeat = setInterval(
      () => {
        this.leases.acquire(lease, ttlMs).then(
          (held) => {
            if (!held && !warned) {
              warned = true;
              log.error(
                { instance: this.instance },
                `another process took INSTANCE_ID ${this.instance} while this one was cut off from the state store; give each instance its own INSTANCE_ID`,
              );
            } else if (held) warned = false;
          },
          // The store is down: the connection retries on its own, and the next beat claims it again.
          () => undefined,
        );
      },
      Math.max(100, Math.floor(ttlMs / 3)),
    );
    this.heartbeat.unref();
  }

  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    // Gives the name back at once, so a restart with the same INSTANCE_ID need not wait for it to lapse.
    if (this.claimed && this.conn.available()) await this.leases.release(this.claimed).catch(() => undefined);
    this.claimed = undefined;
    for (const d of this.documents.splice(0)) d.close();
    await this.conn.close();
  }
}
