// AXL clients per caller and node, reused across tool calls: one keep-alive TLS agent, and the AXL
// version negotiated once (HTTP 599) and remembered for the node, not re-probed on every call.
import { createHmac, randomBytes } from 'node:crypto';
import type { ClientVault, NodeAddressGuard, Product } from '../../../kernel/sdk/index.ts';
import { AXLError } from '../../../kernel/sdk/index.ts';
import { loadEndpoint, PORTS } from '../node/endpoint.ts';
import { AxlClient, negotiateVersion } from './axl-client.ts';
import type { AxlSchemaCache } from './schema-cache.ts';
import type { LimitStateStore } from '../node/window-limiter.ts';
import type { NodeEndpoint, RetryPolicy } from './transport.ts';

export interface AxlConnectionsOptions {
  product: Product;
  cache: AxlSchemaCache;
  /** A client unused this long is closed. Default 5 min. */
  idleMs?: number;
  /** How long a negotiated version is trusted before the next probe. Default 10 min. */
  versionTtlMs?: number;
  /** Most clients kept; the least recently used is closed beyond. Default 64. */
  maxClients?: number;
  retry?: RetryPolicy;
  timeoutMs?: number;
  throttleBackoffMs?: readonly number[];
  /** Where nodes may be (the kernel's node address policy); unset: the always-refused list only. */
  addresses?: NodeAddressGuard;
  /** Nodes' throttling blocks, shared by every instance with a shared state backend (AxlClientOptions). */
  throttle?: LimitStateStore;
}

interface Entry {
  client: AxlClient;
  endpoint: NodeEndpoint;
  lastUsed: number;
}

/** A node's AXL connection for one caller, with the endpoint it resolved to (for messages and RIS). */
export interface AxlConnection {
  client: AxlClient;
  endpoint: NodeEndpoint;
}

export class AxlConnections {
  readonly #entries = new Map<string, Entry>();
  readonly #versions = new Map<string, { version: string; at: number }>();
  readonly #keySecret = randomBytes(32);
  readonly #o: AxlConnectionsOptions;
  readonly #timer: NodeJS.Timeout;

  constructor(o: AxlConnectionsOptions) {
    this.#o = o;
    this.#timer = setInterval(() => this.#sweep(), 30_000);
    this.#timer.unref();
  }

  get cache(): AxlSchemaCache {
    return this.#o.cache;
  }

  /** Retry policy and per-attempt timeout of every request to a node (the NODE_* settings). */
  get requestOptions(): { retry?: RetryPolicy; timeoutMs?: number } {
    return {
      ...(this.#o.retry ? { retry: this.#o.retry } : {}),
      ...(this.#o.timeoutMs ? { timeoutMs: this.#o.timeoutMs } : {}),
    };
  }

  /** The node address policy the clients follow, for tools that load an endpoint themselves. */
  get addresses(): NodeAddressGuard | undefined {
    return this.#o.addresses;
  }

  /**
   * The caller's AXL client for `host`, logging in with its stored credential. With `signal` (the tool
   * call's), the client returned is a view whose requests end when it aborts.
   */
  async connect(vault: ClientVault, host: string, signal?: AbortSignal): Promise<AxlConnection> {
    const endpoint = await loadEndpoint(vault, this.#o.product, 'axl', host, PORTS.https, this.#o.addresses);
    const key = this.#key(vault.client, host, endpoint);
    const known = this.#entries.get(key);
    if (known) {
      known.lastUsed = Date.now();
      return { client: known.client.withSignal(signal), endpoint };
    }
    const version = await this.#version(endpoint, signal);
    const schema = await this.#o.cache.load(version);
    const client = new AxlClient({
      ...endpoint,
      version,
      schema,
      ...(this.#o.retry ? { retry: this.#o.retry } : {}),
      ...(this.#o.timeoutMs ? { timeoutMs: this.#o.timeoutMs } : {}),
      ...(this.#o.throttleBackoffMs ? { throttleBackoffMs: this.#o.throttleBackoffMs } : {}),
      ...(this.#o.throttle ? { throttle: this.#o.throttle } : {}),
    });
    this.#entries.set(key, { client, endpoint, lastUsed: Date.now() });
    this.#evict();
    return { client: client.withSignal(signal), endpoint };
  }

  /**
   * Runs `fn` with the caller's client; when the node says it no longer serves the negotiated version
   * (an upgrade between calls), the version is negotiated again and `fn` runs once more.
   */
  async with<T>(
    vault: ClientVault,
    host: string,
    fn: (c: AxlConnection) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const conn = await this.connect(vault, host, signal);
    try {
      return await fn(conn);
    } catch (err) {
      if (!(err instanceof AXLError) || !/does not serve AXL/.test(err.message)) throw err;
      this.forget(conn.endpoint);
      return fn(await this.connect(vault, host, signal));
    }
  }

  /** Drops what is known of a node (its version and every client to it). */
  forget(endpoint: NodeEndpoint): void {
    const addr = address(endpoint);
    this.#versions.delete(addr);
    for (const [k, e] of this.#entries) {
      if (address(e.endpoint) === addr) {
        e.client.close();
        this.#entries.delete(k);
      }
    }
  }

  close(): void {
    clearInterval(this.#timer);
    for (const e of this.#entries.values()) e.client.close();
    this.#entries.clear();
  }

  async #version(endpoint: NodeEndpoint, signal: AbortSignal | undefined): Promise<string> {
    const addr = address(endpoint);
    const known = this.#versions.get(addr);
    const ttl = this.#o.versionTtlMs ?? 10 * 60_000;
    if (known && Date.now() - known.at < ttl && this.#o.cache.has(known.version)) return known.version;
    const { version } = await negotiateVersion(
      {
        ...endpoint,
        ...(this.#o.retry ? { retry: this.#o.retry } : {}),
        ...(this.#o.timeoutMs ? { timeoutMs: this.#o.timeoutMs } : {}),
        ...(signal ? { signal } : {}),
      },
      this.#o.cache,
    );
    this.#versions.set(addr, { version, at: Date.now() });
    return version;
  }

  /** Keyed by caller, credential host, where it connects, the login and a keyed hash of the password. */
  #key(client: string, host: string, e: NodeEndpoint): string {
    const pw = createHmac('sha256', this.#keySecret)
      .update(`${e.password}\0${e.caCertPem ?? ''}\0${e.certPem ?? ''}`)
      .digest('base64url');
    return JSON.stringify([client, host.toLowerCase(), address(e), e.username, pw]);
  }

  #sweep(): void {
    const idle = this.#o.idleMs ?? 5 * 60_000;
    const now = Date.now();
    for (const [k, e] of this.#entries) {
      if (now - e.lastUsed > idle) {
        e.client.close();
        this.#entries.delete(k);
      }
    }
  }

  #evict(): void {
    const max = this.#o.maxClients ?? 64;
    while (this.#entries.size > max) {
      let oldest: [string, Entry] | undefined;
      for (const kv of this.#entries) if (!oldest || kv[1].lastUsed < oldest[1].lastUsed) oldest = kv;
      if (!oldest) return;
      oldest[1].client.close();
      this.#entries.delete(oldest[0]);
    }
  }
}

function address(e: NodeEndpoint): string {
  return `${e.host}:${e.port}`;
}
