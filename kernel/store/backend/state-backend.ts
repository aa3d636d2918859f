import type { DocumentStore } from '../document-store.ts';
import type { SlidingWindowStore } from '../sliding-window.ts';

/**
 * Where the state that several instances must agree on lives (STATE_BACKEND): `local` keeps it in this
 * process's memory and the state directory's files (one instance, nothing to install); `redis` keeps it
 * in a Redis 7 or Valkey 8 server that every instance shares. Each kind of state has the interface that
 * fits it, so that every operation maps to one atomic step of the store (a Lua script, a MULTI, a SET NX)
 * and a limit is never exceeded by a race between instances.
 *
 * Fail closed: while a redis backend cannot reach its server, every operation (and a document's read)
 * throws StateStoreUnavailableError (503 STATE_STORE_UNAVAILABLE); nothing falls back to what this
 * instance alone remembers. The connection is retried on its own; the first successful command after an
 * outage reloads the documents' mirrors before they are read again.
 */
export interface StateBackend {
  readonly kind: 'local' | 'redis';
  /** This instance's name (INSTANCE_ID, else the host name): audit records and files, leases. */
  readonly instance: string;
  /** Rate limits, failure counts and node limits: `hit` is atomic across instances. */
  readonly windows: SlidingWindowStore;
  /** Keyed records that expire: sessions, plans, authorization codes, node limit states. */
  readonly records: RecordStore;
  /** Notices between instances (profile or license changed, list changed). */
  readonly bus: NoticeBus;
  /** Leases: one instance at a time runs a singleton job (backups, startup-token renewal). */
  readonly leases: LeaseStore;
  /**
   * A named JSON document (revocation list, IP blacklist, registered applications...). `local` keeps it
   * in `file` when one is given (as today), else in memory. `redis` keeps it in the store: reads come
   * from a mirror kept current by change notices (another instance's update shows within milliseconds),
   * updates are optimistic transactions on the store's copy (WATCH/MULTI), retried on conflict.
   * Opening loads it; with `file` and an empty store, the file's content is the first value.
   */
  document<T>(name: string, opts: DocumentOptions<T>): Promise<DocumentStore<T>>;
  /** Throws StateStoreUnavailableError when the store cannot be used now. */
  assertAvailable(): void;
  /** For /health, /status and metrics: whether the store answers, and what it is (never a secret). */
  status(): BackendStatus;
  close(): Promise<void>;
}

export interface DocumentOptions<T> {
  initial: () => T;
  validate: (raw: unknown) => T;
  /** The file that holds it with the local backend (and seeds an empty shared store). */
  file?: string;
  /**
   * Another process (an operator command) may replace the file while the server runs (SharedFileStore
   * semantics with the local backend).
   */
  sharedFile?: boolean;
}

export interface BackendStatus {
  kind: 'local' | 'redis';
  /** False while a shared store cannot be reached. Always true for local. */
  available: boolean;
  /** e.g. "redis://store:6379/0 (TLS)"; never a password. */
  target: string;
  /** Why it is unavailable, when it is. */
  reason?: string;
}

/** Short string records with a time to live. Keys are namespaced by the caller ("session:<id>"). */
export interface RecordStore {
  get(key: string): Promise<string | undefined>;
  /** Sets (replaces) the record; it expires `ttlMs` from now. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the record only if absent; true when this call created it. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Reads and deletes in one step: of several instances taking one record, exactly one gets it. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Keys beginning with `prefix` (bounded use: sweeps and listings of a few thousand). */
  keys(prefix: string): Promise<string[]>;
}

/** At-most-once notices to every instance (this one included). A lost notice is repaired by the TTLs. */
export interface NoticeBus {
  publish(channel: string, message: string): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, onMessage: (message: string) => void): () => void;
}

export interface LeaseStore {
  /** Takes `name` for `ttlMs` if free, or extends it if this instance holds it; true when held. */
  acquire(name: string, ttlMs: number): Promise<boolean>;
  /** Gives it up if this instance holds it. */
  release(name: string): Promise<void>;
}
