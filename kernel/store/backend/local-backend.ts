import { EventEmitter } from 'node:events';
import { FileDocumentStore, MemoryDocumentStore, type DocumentStore } from '../document-store.ts';
import { SharedFileStore } from '../shared-file-store.ts';
import { MemorySlidingWindowStore } from '../sliding-window.ts';
import type {
  BackendStatus,
  DocumentOptions,
  LeaseStore,
  NoticeBus,
  RecordStore,
  StateBackend,
} from './state-backend.ts';

/**
 * STATE_BACKEND=local: this process's memory and the state directory's files, as the server has always
 * kept them. One instance only: nothing here is seen by another process.
 */
export class LocalBackend implements StateBackend {
  readonly kind = 'local' as const;
  readonly windows = new MemorySlidingWindowStore();
  readonly records: MemoryRecordStore;
  readonly bus = new LocalNoticeBus();
  readonly leases: LeaseStore = {
    // The only instance always holds every lease.
    acquire: () => Promise.resolve(true),
    release: () => Promise.resolve(),
  };

  constructor(
    readonly instance: string,
    clock: () => number = Date.now,
  ) {
    this.records = new MemoryRecordStore(clock);
  }

  document<T>(_name: string, opts: DocumentOptions<T>): Promise<DocumentStore<T>> {
    if (opts.file && opts.sharedFile)
      return Promise.resolve(new SharedFileStore(opts.file, opts.initial, opts.validate));
    if (opts.file) return Promise.resolve(new FileDocumentStore(opts.file, opts.initial, opts.validate));
    return Promise.resolve(new MemoryDocumentStore(opts.initial()));
  }

  assertAvailable(): void {}

  status(): BackendStatus {
    return { kind: 'local', available: true, target: 'local' };
  }

  close(): Promise<void> {
    this.bus.close();
    return Promise.resolve();
  }
}

/** Records in a map; an expired one is gone for every read, and dropped when next touched or listed. */
export class MemoryRecordStore implements RecordStore {
  private readonly map = new Map<string, { value: string; expiresAt: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.live(key)?.value);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.map.set(key, { value, expiresAt: this.clock() + ttlMs });
    return Promise.resolve();
  }

  create(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return Promise.resolve(false);
    this.map.set(key, { value, expiresAt: this.clock() + ttlMs });
    return Promise.resolve(true);
  }

  take(key: string): Promise<string | undefined> {
    const r = this.live(key);
    this.map.delete(key);
    return Promise.resolve(r?.value);
  }

  delete(key: string): Promise<void> {
    this.map.delete(key);
    return Promise.resolve();
  }

  keys(prefix: string): Promise<string[]> {
    const out: string[] = [];
    for (const k of [...this.map.keys()]) if (k.startsWith(prefix) && this.live(k)) out.push(k);
    return Promise.resolve(out);
  }

  private live(key: string): { value: string; expiresAt: number } | undefined {
    const r = this.map.get(key);
    if (r && r.expiresAt <= this.clock()) {
      this.map.delete(key);
      return undefined;
    }
    return r;
  }
}

/**
 * Notices within this process. Delivered on a later turn of the event loop, never inside `publish`, so
 * code written against the shared bus (where delivery is always later) behaves the same here.
 */
export class LocalNoticeBus implements NoticeBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(channel: string, message: string): Promise<void> {
    setImmediate(() => {
      for (const l of this.emitter.listeners(channel) as ((m: string) => void)[]) {
        try {
          l(message);
        } catch {
          // One handler's failure does not keep the notice from the others.
        }
      }
    });
    return Promise.resolve();
  }

  subscribe(channel: string, onMessage: (message: string) => void): () => void {
    this.emitter.on(channel, onMessage);
    return () => this.emitter.off(channel, onMessage);
  }

  close(): void {
    this.emitter.removeAllListeners();
  }
}
