// One VOS CLI shell per (client, product, node, login), reused across tool calls.
import { createHmac, randomBytes } from 'node:crypto';
import {
  ConnectivityError,
  SSHError,
  currentNodeRequests,
  hostVerifier,
  type ChangeClass,
  type ClientVault,
  type NodeAddressGuard,
  type NodeIoSettings,
} from '../../../kernel/sdk/index.ts';
import { timeBudget, validateCommand, type RunOptions } from './command-policy.ts';
import { ShellClosedError, ShellSession, type CommandResult } from './shell-session.ts';
import { NodeUnreachableError, sshAddress } from './ssh-connect.ts';
import { exponentialBackoff, hostPort } from '../axl/transport.ts';
import { untilAborted } from '../node/abort.ts';
import { classifyNodeRequest } from '../changes/node-request-class.ts';

export type VosProduct = 'cucm' | 'imp' | 'cuc';

export interface ShellPoolOptions {
  /** A shell unused this long is closed. Default 5 min. */
  idleMs?: number;
  /** Open shells at most; the least recently used idle one makes room. Default 32. */
  maxShells?: number;
  /** Waits between connection attempts on a network failure. Default 0.5, 1, 2 s. */
  retryDelaysMs?: number[];
  /** Up to this much random time is added to each wait, so many callers do not retry in step. Default 250 ms. */
  retryJitterMs?: number;
  /** SSH handshake and authentication. Default 20 s. */
  readyTimeoutMs?: number;
  /**
   * Connecting in all: every attempt and wait. An attempt gets at most what is left of it. Default 120 s
   * (NODE_BUDGET_MS). The login's wait for the prompt and the command's own budget come after.
   */
  connectBudgetMs?: number;
  /**
   * From connecting to a shell ready for commands (the admin: prompt, then paging off). Default 30 s (a
   * real node takes 8 s or more); shellPoolOptions: NODE_TIMEOUT_MS when shorter.
   */
  loginTimeoutMs?: number;
  /** Per-command output cap. Default 4 MiB. */
  maxOutputBytes?: number;
  /** Where nodes may be (the kernel's node address policy); unset: the always-refused list only. */
  addresses?: NodeAddressGuard;
}

/**
 * The pool's options from the NODE_* settings: exponential retry delays, handshake and connect budgets;
 * unset: the pool's defaults.
 */
export function shellPoolOptions(
  io: NodeIoSettings | undefined,
  addresses?: NodeAddressGuard,
): ShellPoolOptions {
  if (!io) return addresses ? { addresses } : {};
  return {
    ...(addresses ? { addresses } : {}),
    retryDelaysMs: exponentialBackoff(io.attempts, io.retryBaseMs),
    retryJitterMs: Math.min(250, Math.round(io.retryBaseMs / 2)),
    readyTimeoutMs: Math.min(20_000, io.timeoutMs),
    connectBudgetMs: io.budgetMs,
    // The node's silence before the admin: prompt is a silence like any other: bounded by the same setting.
    loginTimeoutMs: Math.min(30_000, io.timeoutMs),
  };
}

/** Options of one pooled run: the command's, and the tool call's signal. */
export interface PoolRunOptions extends RunOptions {
  /**
   * The tool call's: aborting it stops this caller's wait for a login (the login goes on for the pool)
   * and closes the shell of a command running, whose state is then unknown.
   */
  signal?: AbortSignal;
}

export interface PoolRunResult extends CommandResult {
  /** The normalised command that was run. */
  command: string;
  /** False when this call had to log in first. */
  reusedShell: boolean;
  durationMs: number;
}

export interface ShellCheck {
  reusedShell: boolean;
  /** Login time of the shell (of the earlier call when reused). */
  loginMs: number;
}

interface Entry {
  session: Promise<ShellSession>;
  /** Set once logged in, so eviction can see synchronously whether the shell is busy. */
  ready?: ShellSession;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Shells are keyed by client, product, host, username and (a keyed hash of) the password: two clients
 * never share a shell even for the same node and login, and a credential changed in the vault gets a
 * new login instead of riding on the old one. Concurrent first calls share one login.
 */
export class VosShellPool {
  readonly #entries = new Map<string, Entry>();
  readonly #keySecret = randomBytes(32);
  readonly #o: Required<Omit<ShellPoolOptions, 'addresses'>>;
  readonly #addresses: NodeAddressGuard | undefined;
  #closing = false;

  constructor(options: ShellPoolOptions = {}) {
    this.#addresses = options.addresses;
    this.#o = {
      idleMs: options.idleMs ?? 5 * 60_000,
      maxShells: options.maxShells ?? 32,
      retryDelaysMs: options.retryDelaysMs ?? [500, 1_000, 2_000],
      retryJitterMs: options.retryJitterMs ?? 250,
      readyTimeoutMs: options.readyTimeoutMs ?? 20_000,
      connectBudgetMs: options.connectBudgetMs ?? 120_000,
      loginTimeoutMs: options.loginTimeoutMs ?? 30_000,
      maxOutputBytes: options.maxOutputBytes ?? 4 * 1024 * 1024,
    };
  }

  /** Open (or opening) shells. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Runs one CLI command on a node with the caller's stored `os` credential. The command is checked
   * (BadRequestError), then the caller's SSH allowlist is asked about it (ProfilePermissionError),
   * before anything is looked up or sent: every command of every tool, not only the one its `access`
   * names, so a tool that types several commands cannot send one its caller may not run.
   */
  async run(
    vault: ClientVault,
    product: VosProduct,
    host: string,
    command: string,
    options: PoolRunOptions = {},
  ): Promise<PoolRunResult> {
    const cmd = validateCommand(command);
    currentNodeRequests().permit('ssh', cmd);
    const timeoutMs = options.timeoutMs ?? timeBudget(cmd);
    const started = Date.now();
    const signal = options.signal;
    // One reconnect when the pooled shell turned out to be dead before the command was written.
    const operation = options.confirm === true ? `${cmd} [confirmed]` : cmd;
    // Classified where every command leaves, so a call using a read-only credential types reads only.
    const cls = classifyNodeRequest({ service: 'ssh', operation: cmd });
    for (let attempt = 0; ; attempt++) {
      const { session, key, reused } = await this.#acquire(vault, product, host, operation, cls, signal);
      // A cancelled call leaves a command in an unknown state: the shell is closed, the next call logs in.
      const onAbort = (): void => this.#drop(key, session);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (signal?.aborted) throw cancelled(label(product, host));
        const result = await session.run(cmd, { timeoutMs, confirm: options.confirm === true });
        return { ...result, command: cmd, reusedShell: reused, durationMs: Date.now() - started };
      } catch (err) {
        if (err instanceof ShellClosedError && attempt === 0 && !signal?.aborted) {
          this.#drop(key, session);
          continue;
        }
        throw signal?.aborted ? cancelled(label(product, host), err) : err;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        this.#touch(key);
      }
    }
  }

  /** The SSH part of a connectivity check: log in (or find the open shell) and report. */
  async check(
    vault: ClientVault,
    product: VosProduct,
    host: string,
    signal?: AbortSignal,
  ): Promise<ShellCheck> {
    const { session, key, reused } = await this.#acquire(vault, product, host, 'login check', 'read', signal);
    this.#touch(key);
    return { reusedShell: reused, loginMs: session.loginMs };
  }

  /** Closes every shell; later calls open new ones. */
  async closeAll(): Promise<void> {
    this.#closing = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(
      entries.map(async (e) => {
        clearTimeout(e.idleTimer);
        (await e.session).close();
      }),
    );
    this.#closing = false;
  }

  /** The caller's shell, logging in first when there is none; `operation` is what it is for (audited). */
  async #acquire(
    vault: ClientVault,
    product: VosProduct,
    host: string,
    operation: string,
    changeClass: ChangeClass,
    signal?: AbortSignal,
  ): Promise<{ session: ShellSession; key: string; reused: boolean }> {
    if (signal?.aborted) throw cancelled(label(product, host));
    const secret = await vault.get(product, 'os', host);
    // Before a login or a command leaves: a spent SSH rate-limit window throws here.
    const to = sshAddress(host, secret.options);
    await currentNodeRequests().request({
      service: 'ssh',
      operation,
      address: hostPort(to.host, to.port),
      change_class: changeClass,
    });
    const passwordTag = createHmac('sha256', this.#keySecret).update(secret.password).digest('base64');
    const key = JSON.stringify([vault.client, product, host, secret.username, passwordTag]);
    const existing = this.#entries.get(key);
    if (existing) {
      // A login under way is shared, its failure too: a caller that joined it does not start a second
      // one, which would wait out the login budget again (a silent node) or count another failed login.
      const session = await untilAborted(existing.session, signal, () => cancelled(label(product, host)));
      if (!session.closed) return { session, key, reused: true };
      if (this.#entries.get(key) === existing) this.#entries.delete(key);
    }
    if (this.#closing) throw new SSHError('the VOS CLI shells are being closed (server shutting down)');
    this.#makeRoom();
    const { host: address, port } = sshAddress(host, secret.options);
    const opening = this.#connectWithRetry((readyTimeoutMs) =>
      ShellSession.open({
        host: address,
        port,
        username: secret.username,
        password: secret.password,
        // Trust is per logical host (the credential's), whatever address it is reached at.
        verifier: hostVerifier(vault.hostKeys, product, host),
        label: label(product, host),
        readyTimeoutMs,
        loginTimeoutMs: this.#o.loginTimeoutMs,
        maxOutputBytes: this.#o.maxOutputBytes,
        ...(this.#addresses ? { addresses: this.#addresses } : {}),
      }),
    );
    const entry: Entry = { session: opening, lastUsed: Date.now() };
    this.#entries.set(key, entry);
    // Whoever waits for it (a caller may have left): the shell joins the pool with its idle countdown
    // started, so it is not kept forever, and a failed login leaves the pool.
    opening.then(
      (session) => {
        entry.ready = session;
        session.onClose(() => {
          if (this.#entries.get(key) === entry) {
            clearTimeout(entry.idleTimer);
            this.#entries.delete(key);
          }
        });
        this.#touch(key);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    const session = await untilAborted(opening, signal, () => cancelled(label(product, host)));
    return { session, key, reused: false };
  }

  /**
   * Logs in, retrying network failures with the backoff within the connect budget: each attempt's
   * handshake gets at most what is left of it, and no wait runs past it.
   */
  async #connectWithRetry(open: (readyTimeoutMs: number) => Promise<ShellSession>): Promise<ShellSession> {
    const delays = this.#o.retryDelaysMs;
    const deadline = Date.now() + this.#o.connectBudgetMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await open(Math.max(1, Math.min(this.#o.readyTimeoutMs, deadline - Date.now())));
      } catch (err) {
        if (!(err instanceof NodeUnreachableError)) throw err;
        const step = delays[attempt];
        const wait = step === undefined ? undefined : step + Math.random() * this.#o.retryJitterMs;
        const attempts = `${attempt + 1} attempt${attempt === 0 ? '' : 's'}`;
        if (!err.retryable || wait === undefined || Date.now() + wait >= deadline)
          throw new ConnectivityError(`${err.message} (${attempts})`, { cause: err });
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** Restarts the idle countdown of a shell after use. */
  #touch(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.lastUsed = Date.now();
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      void entry.session.then(
        (s) => {
          // A command queued meanwhile keeps the shell; its own touch restarts the countdown.
          if (s.busy || this.#entries.get(key) !== entry) return;
          this.#entries.delete(key);
          s.close();
        },
        () => undefined,
      );
    }, this.#o.idleMs);
    entry.idleTimer.unref();
  }

  #drop(key: string, session: ShellSession): void {
    const entry = this.#entries.get(key);
    if (entry) {
      clearTimeout(entry.idleTimer);
      this.#entries.delete(key);
    }
    session.close();
  }

  /** Closes the least recently used idle shell when the pool is full; refuses when all are busy. */
  #makeRoom(): void {
    if (this.#entries.size < this.#o.maxShells) return;
    let victim: [string, Entry] | undefined;
    for (const item of this.#entries) {
      const ready = item[1].ready;
      const idle = ready !== undefined && !ready.busy;
      if (idle && (!victim || item[1].lastUsed < victim[1].lastUsed)) victim = item;
    }
    if (!victim)
      throw new SSHError(
        `too many VOS CLI shells are open or opening (${this.#o.maxShells}); try again shortly`,
      );
    const [key, entry] = victim;
    clearTimeout(entry.idleTimer);
    this.#entries.delete(key);
    entry.ready?.close();
  }
}

function label(product: VosProduct, host: string): string {
  return `${product} host ${host}`;
}

function cancelled(what: string, cause?: unknown): ConnectivityError {
  return new ConnectivityError(`the call to ${what} over SSH was cancelled by the caller`, { cause });
}
