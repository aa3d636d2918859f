import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Redis, type RedisOptions } from 'ioredis';
import type { AppLogger } from '../../logging/app-log.ts';
import { decryptSftpPassword } from '../../backup/sftp-password.ts';
import { StartupError, StateStoreUnavailableError } from '../../errors/index.ts';
import type { BackendStatus } from './state-backend.ts';

/** Every key and channel of this server lives under this prefix, so a store may be shared with others. */
export const KEY_PREFIX = 'ucmcp:';

/** Longest pause between two reconnection attempts: an outage ends for us within this of its end. */
const MAX_RECONNECT_DELAY_MS = 2000;

/** Seconds a caller refused for an unavailable store is told to wait (Retry-After). */
export const STORE_RETRY_AFTER_SECONDS = 2;

export interface RedisConnectionSettings {
  /** STATE_BACKEND: redis://[user@]host:port[/db] or rediss://... (validated by the config schema). */
  url: string;
  /** STATE_BACKEND_PASSWORD_ENC: encrypted under the server public key; empty for none. */
  passwordEnc: string;
  /** STATE_BACKEND_TLS_CA_FILE: PEM of the CA that signed a rediss:// store's certificate. */
  caFile: string;
  /** STATE_BACKEND_TIMEOUT_MS: longest wait for one command. */
  timeoutMs: number;
  /** The server private key (startup step 6), which decrypts the password. */
  privateKey: KeyObject;
}

/**
 * The two connections to the shared store: `client` for commands, `subscriber` for notices (a
 * subscribed Redis connection can do nothing else). Both reconnect forever on their own with a capped
 * backoff; while `client` is not ready, nothing is queued (enableOfflineQueue off) and every use throws
 * StateStoreUnavailableError at once, so a request is refused with a 503 instead of waiting or being
 * decided without the shared state.
 */
export class RedisConnection {
  readonly client: Redis;
  readonly subscriber: Redis;
  readonly prefix = KEY_PREFIX;
  /** host:port and the scheme, for messages and /status; never a password. */
  readonly target: string;
  readonly timeoutMs: number;
  private reason: string | undefined = 'not connected yet';
  /**
   * The connection is up but the store stopped answering (a command timed out): refused at once until a
   * probe answers again, rather than every request waiting its full timeout.
   */
  private unresponsive = false;
  private probe: NodeJS.Timeout | undefined;
  private readonly readyListeners = new Set<() => void>();
  private closed = false;

  private constructor(settings: RedisConnectionSettings) {
    const u = new URL(settings.url);
    const tls = u.protocol === 'rediss:';
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = u.port === '' ? 6379 : Number(u.port);
    const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
    this.target = `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}/${db}${tls ? ' (TLS)' : ''}`;
    this.timeoutMs = settings.timeoutMs;
    let password: string | undefined;
    if (settings.passwordEnc.trim() !== '') {
      try {
        password = decryptSftpPassword(settings.passwordEnc, settings.privateKey);
      } catch (err) {
        throw new StartupError(
          'STATE_BACKEND_PASSWORD_ENC does not decrypt with this server private key ' +
            '(encrypt it again with scripts/encrypt_sftp_password.ts after a key rotation)',
          { cause: err },
        );
      }
    }
    const options: RedisOptions = {
      host,
      port,
      db,
      ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
      ...(password !== undefined ? { password } : {}),
      // Verification is never switched off: the store holds revocations and limits.
      ...(tls ? { tls: tlsOptions(host, settings.caFile) } : {}),
      lazyConnect: true,
      // The ready check sends INFO, which an ACL user narrowed to what this server needs (-@dangerous)
      // may not run. Without it, a store still loading its data answers LOADING, which is refused as
      // unavailable like any other failure.
      enableReadyCheck: false,
      enableOfflineQueue: false,
      commandTimeout: settings.timeoutMs,
      connectTimeout: Math.max(settings.timeoutMs, 1000),
      // A command sent as the connection drops fails at once rather than waiting for the next one.
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt: number) => Math.min(100 * attempt, MAX_RECONNECT_DELAY_MS),
      // Never print or rethrow the password: ioredis keeps it only in its options.
      showFriendlyErrorStack: false,
    };
    this.client = new Redis({ ...options, connectionName: 'ucmcp' });
    this.subscriber = new Redis({ ...options, connectionName: 'ucmcp-notices', autoResubscribe: true });
    this.client.on('ready', () => {
      this.reason = undefined;
      this.unresponsive = false;
      for (const l of this.readyListeners) l();
    });
    this.client.on('error', (err: Error) => {
      this.reason = describe(err);
    });
    this.client.on('close', () => {
      this.reason ??= 'connection closed';
    });
    this.client.on('end', () => {
      this.reason ??= 'connection ended';
    });
    // Errors of the subscriber show in its own reconnects; without a listener Node would print them.
    this.subscriber.on('error', () => undefined);
  }

  /**
   * Connects both clients (startup). A store that cannot be reached, refuses the credentials or
   * presents a certificate that does not verify stops the start with a message naming host:port and the
   * reason (never the password); nothing keeps retrying in the background after that.
   */
  static async open(settings: RedisConnectionSettings): Promise<RedisConnection> {
    const conn = new RedisConnection(settings);
    try {
      await conn.connectFirst(conn.client);
      await conn.connectFirst(conn.subscriber);
    } catch (err) {
      conn.client.disconnect();
      conn.subscriber.disconnect();
      conn.closed = true;
      throw err;
    }
    conn.startProbe();
    return conn;
  }

  /** A PING now and then: tells a store that hangs (connection up, no answers) from one that answers. */
  private startProbe(): void {
    this.probe = setInterval(
      () => {
        if (this.closed || this.client.status !== 'ready') return;
        this.client.ping().then(
          () => {
            this.unresponsive = false;
          },
          (err: Error) => {
            this.noteFailure(err);
          },
        );
      },
      Math.max(this.timeoutMs, 1000),
    );
    this.probe.unref();
  }

  private noteFailure(err: Error): void {
    this.reason = describe(err);
    if (/timed out/i.test(err.message)) this.unresponsive = true;
  }

  private async connectFirst(c: Redis): Promise<void> {
    let last: Error | undefined;
    const onError = (err: Error): void => {
      last ??= err;
    };
    c.on('error', onError);
    try {
      await c.connect();
      await c.ping();
    } catch (err) {
      const why = describe(last ?? (err as Error));
      throw new StartupError(`the state store ${this.target} cannot be used: ${why}`, { cause: last ?? err });
    } finally {
      c.off('error', onError);
    }
  }

  /** True while commands can be sent. */
  available(): boolean {
    return !this.closed && this.client.status === 'ready' && !this.unresponsive;
  }

  assertAvailable(): void {
    if (!this.available()) throw storeUnavailable();
  }

  status(): BackendStatus {
    const available = this.available();
    return {
      kind: 'redis',
      available,
      target: this.target,
      ...(available ? {} : { reason: this.closed ? 'closed' : (this.reason ?? 'reconnecting') }),
    };
  }

  /** The full key for a name of ours. */
  key(name: string): string {
    return `${KEY_PREFIX}${name}`;
  }

  /**
   * Runs `fn` against the command client, refusing at once when it is not connected, and turning any
   * failure of the store (timeout, dropped connection, refused command) into StateStoreUnavailableError.
   */
  async run<T>(fn: (c: Redis) => Promise<T>): Promise<T> {
    this.assertAvailable();
    try {
      return await fn(this.client);
    } catch (err) {
      if (err instanceof StateStoreUnavailableError) throw err;
      this.noteFailure(err as Error);
      throw storeUnavailable(err);
    }
  }

  /** Logs each outage once as it starts and once as it ends (not a line per reconnection attempt). */
  logOutages(log: AppLogger): void {
    let down = false;
    this.client.on('close', () => {
      if (down || this.closed) return;
      down = true;
      log.error(
        { state_store: this.target, reason: this.reason },
        'the state store connection was lost: requests that need it are refused (503) until it is back',
      );
    });
    this.onReady(() => {
      if (!down) return;
      down = false;
      log.info({ state_store: this.target }, 'the state store is reachable again');
    });
  }

  /** Calls `listener` each time the command connection becomes ready again (after an outage). */
  onReady(listener: () => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    for (const c of [this.subscriber, this.client]) {
      try {
        if (c.status === 'ready') await c.quit();
        else c.disconnect();
      } catch {
        c.disconnect();
      }
    }
  }
}

/**
 * A rediss:// store's certificate is always verified, against STATE_BACKEND_TLS_CA_FILE when set (else
 * the system's CAs), for the host the URL names (SNI carries a name, never an address).
 */
function tlsOptions(host: string, caFile: string): ConnectionOptions {
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (err) {
      throw new StartupError(
        `STATE_BACKEND_TLS_CA_FILE ${caFile} cannot be read: ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
  return {
    rejectUnauthorized: true,
    ...(isIP(host) === 0 ? { servername: host } : {}),
    ...(ca ? { ca } : {}),
  };
}

/** The coded 503 every use of an unavailable store throws (Retry-After STORE_RETRY_AFTER_SECONDS). */
export function storeUnavailable(cause?: unknown): StateStoreUnavailableError {
  const err = new StateStoreUnavailableError(
    'the shared state store is unavailable; try again shortly',
    cause === undefined ? undefined : { cause },
  );
  err.retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;
  return err;
}

/** A store error in words, without anything secret (ioredis errors never carry the password). */
function describe(err: Error): string {
  const code = (err as { code?: string }).code;
  const msg = err.message.split('\n')[0] ?? '';
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}
