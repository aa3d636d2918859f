import { existsSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { StartupError } from '../../errors/index.ts';
import type { DocumentStore } from '../document-store.ts';
import { storeUnavailable, type RedisConnection } from './redis-connection.ts';
import type { DocumentOptions } from './state-backend.ts';

/**
 * The write of a new value, compared and set in one step on the server: it applies only when the version
 * counter is still the one the value was read at (ARGV[1]; '' for a document never written), then
 * stores the value, counts the version up and tells every instance the new version. A script rather than
 * WATCH/MULTI because the command connection is shared by every request of this instance: WATCH is a
 * state of the connection, and another caller's EXEC in between would silently drop our watch.
 */
const COMPARE_AND_SET = `
local v = redis.call('GET', KEYS[2])
if (v or '') ~= ARGV[1] then return false end
redis.call('SET', KEYS[1], ARGV[2])
local n = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[3], tostring(n))
return n
`;

/**
 * The first value of a document the store does not hold yet: from the file of the local backend (an
 * upgrade keeps its revocations), or this instance's last copy after the store lost its data (a restart
 * without persistence), so that a revocation is never forgotten because the store forgot it. Only when
 * the store holds neither the value nor a version: never over another instance's write.
 */
const SEED = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return false end
redis.call('SET', KEYS[1], ARGV[1])
local n = redis.call('INCRBY', KEYS[2], tonumber(ARGV[2]))
redis.call('PUBLISH', ARGV[3], tostring(n))
return n
`;

interface DocumentCommands {
  ucmcpDocCas(
    key: string,
    versionKey: string,
    expected: string,
    json: string,
    channel: string,
  ): Promise<number | null>;
  ucmcpDocSeed(
    key: string,
    versionKey: string,
    json: string,
    version: number,
    channel: string,
  ): Promise<number | null>;
}

/** Settings beyond DocumentOptions (tests shorten the poll). */
export interface RedisDocumentSettings {
  /** How often the version is compared with the store's, in case a change notice was lost. */
  pollMs?: number;
  /** Attempts of one update against concurrent writers before it fails. */
  maxAttempts?: number;
  /** Told when a value read from the store is not taken (does not parse or validate), and why. */
  onProblem?: (problem: string) => void;
}

const DEFAULT_POLL_MS = 500;
const DEFAULT_MAX_ATTEMPTS = 100;

/**
 * A JSON document kept in the shared store (one key holds the JSON, another its version counter), with a
 * mirror in this instance so that `read()` stays synchronous, as on the request path (revocations, the
 * IP blacklist). Every instance keeps its mirror current from the change notice published by each write
 * (milliseconds) and, in case a notice is lost, by comparing the version every `pollMs`.
 *
 * `update` reads the store's copy, applies `mutate`, and writes it back only if no other instance wrote
 * in between (else it starts again from the newer copy, up to `maxAttempts` times); it resolves once the
 * store has the new value, which the mirror then holds. `mutate` may thus run more than once: it must
 * derive everything from its argument.
 *
 * Fail closed: while the connection is down, or after it came back but before the mirror was loaded
 * again, `read()` and `update()` throw StateStoreUnavailableError; nothing is answered from a mirror
 * that may have missed a revocation. A value in the store that does not parse or validate is not taken:
 * the last good one is kept and `problem` says why (as SharedFileStore does with a bad hand edit).
 */
export class RedisDocumentStore<T> implements DocumentStore<T> {
  private value: T;
  /** Version of the store's copy the mirror holds; 0 before the store has one. */
  private version = 0;
  /** True once the mirror was loaded since the connection last came up. */
  private fresh = false;
  private queue: Promise<unknown> = Promise.resolve();
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  private polling = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly cleanups: (() => void)[] = [];
  private closed = false;
  /** Why the store's copy is not in force (it does not parse or validate), or null when it is. */
  problem: string | null = null;

  private readonly key: string;
  private readonly versionKey: string;
  private readonly channel: string;

  private constructor(
    private readonly conn: RedisConnection,
    readonly name: string,
    private readonly opts: DocumentOptions<T>,
    private readonly settings: RedisDocumentSettings,
  ) {
    this.key = conn.key(`doc:${name}`);
    this.versionKey = conn.key(`doc:${name}:version`);
    this.channel = conn.key(`doc-changed:${name}`);
    this.value = opts.initial();
  }

  /**
   * Opens `name` (keys `<prefix>doc:<name>` and `<prefix>doc:<name>:version`, notices on
   * `<prefix>doc-changed:<name>`): subscribes to its notices, seeds it from `opts.file` when the store
   * has no value yet, and loads the mirror. Rejects when the store cannot be used, or when its value or
   * the seed file does not validate (a StartupError naming it).
   */
  static async open<T>(
    conn: RedisConnection,
    name: string,
    opts: DocumentOptions<T>,
    settings: RedisDocumentSettings = {},
  ): Promise<RedisDocumentStore<T>> {
    const doc = new RedisDocumentStore(conn, name, opts, settings);
    try {
      await doc.start();
    } catch (err) {
      doc.close();
      throw err;
    }
    return doc;
  }

  read(): T {
    this.assertUsable();
    return this.value;
  }

  update(mutate: (current: T) => T): Promise<T> {
    const next = this.queue.then(() => this.write(mutate));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Stops the poll and the notices (the connection itself belongs to the backend). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const c of this.cleanups.splice(0)) c();
  }

  private async start(): Promise<void> {
    const commands = defineCommands(this.conn.client);
    // Subscribed before the first load: a write between the load and the subscription would go unseen.
    this.cleanups.push(await subscribe(this.conn.subscriber, this.channel, (m) => this.onNotice(m)));
    if (this.opts.file !== undefined && existsSync(this.opts.file)) {
      const seed = this.readSeedFile(this.opts.file);
      await this.conn.run(() =>
        commands.ucmcpDocSeed(this.key, this.versionKey, JSON.stringify(seed), 1, this.channel),
      );
    }
    const [first = null, firstVersion = null] = await this.conn.run((c) => c.mget(this.key, this.versionKey));
    if (first !== null) {
      try {
        this.value = this.parse(first);
      } catch (err) {
        throw new StartupError(`state store document ${this.name}: ${(err as Error).message}`, {
          cause: err,
        });
      }
    }
    this.version = Number(firstVersion ?? 0);
    this.fresh = true;

    const onClose = (): void => {
      this.fresh = false;
    };
    this.conn.client.on('close', onClose);
    this.cleanups.push(() => this.conn.client.off('close', onClose));
    // Back after an outage: load again before anything is read (notices may have been missed).
    this.cleanups.push(this.conn.onReady(() => void this.requestReload()));
    const onSubscriberReady = (): void => void this.requestReload();
    this.conn.subscriber.on('ready', onSubscriberReady);
    this.cleanups.push(() => this.conn.subscriber.off('ready', onSubscriberReady));
    this.timer = setInterval(() => void this.poll(), this.settings.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
  }

  private readSeedFile(file: string): T {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new StartupError(`state file ${file} does not parse: ${(err as Error).message}`, { cause: err });
    }
    try {
      return this.opts.validate(raw);
    } catch (err) {
      throw new StartupError(`state file ${file}: ${(err as Error).message}`, { cause: err });
    }
  }

  private assertUsable(): void {
    if (this.closed || !this.fresh || !this.conn.available()) throw storeUnavailable();
  }

  private async write(mutate: (current: T) => T): Promise<T> {
    const commands = defineCommands(this.conn.client);
    const attempts = this.settings.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      this.assertUsable();
      const [raw = null, ver = null] = await this.conn.run((c) => c.mget(this.key, this.versionKey));
      // No value in the store: never written (the mirror is the initial value), or the store lost its
      // data, when the mirror is the last value this instance knew (and is written back).
      let base = this.value;
      if (raw !== null) {
        try {
          base = this.parse(raw);
        } catch (err) {
          // A bad value is replaced by the last good one with this change, never taken.
          this.report(err);
        }
      }
      const candidate = mutate(structuredClone(base));
      const json = JSON.stringify(candidate);
      // Nothing changed (a code or token not found, nothing expired): no write, and no instance has
      // to load the document again. The value read is the answer as of that read.
      if (raw !== null && json === raw && this.problem === null) {
        const version = Number(ver ?? 0);
        if (version >= this.version) {
          this.value = candidate;
          this.version = version;
        }
        return candidate;
      }
      const expected = ver ?? '';
      const n =
        raw === null && ver === null && this.version > 0
          ? await this.conn.run(() =>
              commands.ucmcpDocSeed(this.key, this.versionKey, json, this.version + 1, this.channel),
            )
          : await this.conn.run(() =>
              commands.ucmcpDocCas(this.key, this.versionKey, expected, json, this.channel),
            );
      if (n !== null && n !== undefined) {
        this.value = candidate;
        this.version = Number(n);
        // What the store holds now is ours, and good.
        this.problem = null;
        return candidate;
      }
      if (attempt >= attempts)
        throw new Error(
          `state store document ${this.name}: ${attempts} attempts to update it all met a concurrent write`,
        );
      // Another instance wrote in between: start again from its value, after a short random pause so
      // that two instances in step do not meet again at once.
      await sleep(Math.random() * Math.min(2 ** attempt, 50));
    }
  }

  private parse(raw: string): T {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      // Not the parser's message: it quotes the stored text, which may hold token hashes.
      throw new Error('does not parse as JSON', { cause: err });
    }
    return this.opts.validate(value);
  }

  private report(err: unknown): void {
    const problem = `state store document ${this.name}: ${(err as Error).message}`;
    if (problem !== this.problem) this.settings.onProblem?.(problem);
    this.problem = problem;
  }

  private onNotice(message: string): void {
    // Our own writes are in the mirror already; anything else is loaded.
    if (Number(message) !== this.version || !this.fresh) void this.requestReload();
  }

  /** The safety net for a lost notice, and the way back after a failed load. */
  private async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    if (!this.conn.available()) {
      this.fresh = false;
      return;
    }
    this.polling = true;
    try {
      const ver = await this.conn.run((c) => c.get(this.versionKey));
      if (!this.fresh || Number(ver ?? 0) !== this.version) await this.requestReload();
    } catch {
      this.fresh = false;
    } finally {
      this.polling = false;
    }
  }

  /** Loads the store's copy; a request during a load runs one more load after it. */
  private requestReload(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.reload();
        } while (this.reloadAgain && !this.closed);
      } catch {
        this.fresh = false;
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  private async reload(): Promise<void> {
    const wasFresh = this.fresh;
    const [raw = null, ver = null] = await this.conn.run((c) => c.mget(this.key, this.versionKey));
    const version = Number(ver ?? 0);
    // A load that raced our own later write is older than the mirror: keep the mirror.
    if (wasFresh && version < this.version) return;
    if (raw === null) {
      if (this.version > 0) {
        // The store lost the document (restarted without persistence): write our last copy back.
        const commands = defineCommands(this.conn.client);
        await this.conn.run(() =>
          commands.ucmcpDocSeed(
            this.key,
            this.versionKey,
            JSON.stringify(this.value),
            this.version,
            this.channel,
          ),
        );
        // Whoever wrote it back first (us or another instance), load what the store holds now.
        const [again = null, againVer = null] = await this.conn.run((c) => c.mget(this.key, this.versionKey));
        if (again !== null) this.take(again, Number(againVer ?? 0));
      } else {
        this.value = this.opts.initial();
        this.version = version;
      }
    } else {
      this.take(raw, version);
    }
    if (this.conn.available()) this.fresh = true;
  }

  private take(raw: string, version: number): void {
    try {
      this.value = this.parse(raw);
      this.problem = null;
    } catch (err) {
      this.report(err);
    }
    this.version = version;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The scripts as commands of the client (EVALSHA, and the script itself once on NOSCRIPT). */
function defineCommands(client: Redis): DocumentCommands {
  const c = client as unknown as Partial<DocumentCommands> & Redis;
  if (typeof c.ucmcpDocCas !== 'function') {
    c.defineCommand('ucmcpDocCas', { numberOfKeys: 2, lua: COMPARE_AND_SET });
    c.defineCommand('ucmcpDocSeed', { numberOfKeys: 2, lua: SEED });
  }
  return c as unknown as DocumentCommands;
}

/**
 * The channels documents listen on, per subscriber connection: one 'message' listener dispatches to
 * every document, whatever else (the notice bus) uses the connection.
 */
const listeners = new WeakMap<Redis, Map<string, Set<(message: string) => void>>>();

async function subscribe(
  subscriber: Redis,
  channel: string,
  onMessage: (message: string) => void,
): Promise<() => void> {
  let channels = listeners.get(subscriber);
  if (!channels) {
    const map = new Map<string, Set<(message: string) => void>>();
    channels = map;
    listeners.set(subscriber, map);
    subscriber.on('message', (ch: string, message: string) => {
      for (const fn of map.get(ch) ?? []) fn(message);
    });
  }
  let set = channels.get(channel);
  const first = !set;
  if (!set) {
    set = new Set();
    channels.set(channel, set);
  }
  set.add(onMessage);
  if (first) {
    try {
      await subscriber.subscribe(channel);
    } catch (err) {
      set.delete(onMessage);
      if (set.size === 0) channels.delete(channel);
      throw storeUnavailable(err);
    }
  }
  const map = channels;
  return () => {
    const s = map.get(channel);
    if (!s) return;
    s.delete(onMessage);
    if (s.size === 0) {
      map.delete(channel);
      if (subscriber.status === 'ready') void subscriber.unsubscribe(channel).catch(() => undefined);
    }
  };
}
