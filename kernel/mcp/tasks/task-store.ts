import { randomBytes } from 'node:crypto';
import { TaskLimitError } from '../../errors/index.ts';

/** The statuses both revisions define; `input_required` is never entered (a task carries no input requests). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** What the work of a task ends with: the request's own result, or the JSON-RPC error it raised. */
export type TaskOutcome = { result: Record<string, unknown> } | { error: { code: number; message: string } };

/** A task as its owner may see it: the state, and once finished, how it ended. */
export interface TaskView {
  taskId: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  outcome?: TaskOutcome;
}

export interface TaskLimits {
  /** Tasks one client may hold (running or finished and not yet expired). */
  perClient: number;
  /** Tasks all clients together may hold. */
  total: number;
  /** Longest a task and its result are kept after creation; a client may ask for less. */
  ttlMs: number;
  /** The polling interval suggested to clients. */
  pollIntervalMs: number;
}

/** The task's work: it stops when `signal` aborts, and reports progress as a short status message. */
export type TaskWork = (signal: AbortSignal, status: (message: string) => void) => Promise<TaskOutcome>;

interface TaskRecord extends TaskView {
  client: string;
  controller: AbortController;
  listeners: Set<(view: TaskView) => void>;
  finished: Promise<void>;
  markFinished: () => void;
}

/** The polling interval suggested to clients: progress of a download or an export is worth a second. */
export const TASK_POLL_INTERVAL_MS = 1000;

/** Longest status message kept: it is shown to a client, and a tool's progress text is free-form. */
const MAX_STATUS_MESSAGE = 200;

/**
 * Tool calls that outlive their request (MCP tasks), kept by the kernel rather than by an MCP server
 * instance: a 2026-07-28 request has a server of its own that is gone once it answered, and a
 * 2025-11-25 client may poll from a new session. Each task belongs to the client that created it; its
 * id (144 random bits) is only ever looked up together with that client, so another client's lookup,
 * result or cancel finds nothing, exactly as for an id that never existed.
 *
 * Bounded in number (per client and overall) and in time (a TTL from creation, after which the task is
 * dropped and, if still running, aborted). At a bound, the oldest finished task makes room; when every
 * task held is still running, the new one is refused with TASK_LIMIT.
 */
export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: TaskLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, limits.ttlMs));
    this.sweeper.unref();
  }

  /**
   * Creates a task for `client` and starts its work; returns the task as it is now (working). Throws
   * TaskLimitError when the client, or the server, holds as many running tasks as it may.
   */
  start(client: string, tool: string, work: TaskWork, requestedTtlMs?: number): TaskView {
    this.sweep();
    this.makeRoom((t) => t.client === client, this.limits.perClient, `client ${client}`);
    this.makeRoom(() => true, this.limits.total, 'this server');
    const at = this.now();
    let markFinished = (): void => undefined;
    const finished = new Promise<void>((resolve) => (markFinished = resolve));
    const ttlMs =
      requestedTtlMs !== undefined && Number.isFinite(requestedTtlMs) && requestedTtlMs > 0
        ? Math.min(Math.floor(requestedTtlMs), this.limits.ttlMs)
        : this.limits.ttlMs;
    const rec: TaskRecord = {
      taskId: randomBytes(18).toString('base64url'),
      tool,
      client,
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs,
      pollIntervalMs: this.limits.pollIntervalMs,
      controller: new AbortController(),
      listeners: new Set(),
      finished,
      markFinished,
    };
    this.tasks.set(rec.taskId, rec);
    const signal = rec.controller.signal;
    void Promise.resolve()
      .then(() =>
        work(signal, (message) => {
          if (isTerminal(rec.status)) return;
          this.update(rec, { statusMessage: message.slice(0, MAX_STATUS_MESSAGE) });
        }),
      )
      .then(
        (outcome) => this.finish(rec, 'error' in outcome ? 'failed' : 'completed', outcome),
        () => this.finish(rec, 'failed', { error: { code: -32603, message: 'internal error' } }),
      );
    return view(rec);
  }

  /** The client's own task, or undefined (unknown, expired, or another client's). */
  get(client: string, taskId: unknown): TaskView | undefined {
    const rec = this.own(client, taskId);
    return rec ? view(rec) : undefined;
  }

  /** Waits until the client's task is finished (or `signal` aborts); undefined as for `get`. */
  async settled(client: string, taskId: unknown, signal?: AbortSignal): Promise<TaskView | undefined> {
    const rec = this.own(client, taskId);
    if (!rec) return undefined;
    if (!isTerminal(rec.status)) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal?.reason ?? new Error('aborted'));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        void rec.finished.then(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    return this.tasks.get(rec.taskId) === rec ? view(rec) : undefined;
  }

  /** The client's tasks, newest first. */
  list(client: string): TaskView[] {
    this.sweep();
    return [...this.tasks.values()]
      .filter((t) => t.client === client)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map(view);
  }

  /**
   * Cancels the client's task: its work is aborted and it is `cancelled` from now on, whatever the
   * work still returns. A finished task stays as it ended. Undefined as for `get`.
   */
  cancel(client: string, taskId: unknown): TaskView | undefined {
    const rec = this.own(client, taskId);
    if (!rec) return undefined;
    if (!isTerminal(rec.status)) {
      this.finish(rec, 'cancelled', undefined, 'cancelled by the client');
      rec.controller.abort(new Error('the task was cancelled'));
    }
    return view(rec);
  }

  /** Calls `listener` at every change of the client's task until it is finished; returns the unsubscriber. */
  watch(client: string, taskId: string, listener: (view: TaskView) => void): () => void {
    const rec = this.own(client, taskId);
    if (!rec || isTerminal(rec.status)) return () => undefined;
    rec.listeners.add(listener);
    return () => rec.listeners.delete(listener);
  }

  /** Tasks held now (all clients). */
  count(): number {
    this.sweep();
    return this.tasks.size;
  }

  /** Aborts every running task and forgets them all (shutdown). */
  close(): void {
    clearInterval(this.sweeper);
    for (const rec of this.tasks.values()) {
      if (!isTerminal(rec.status)) {
        this.finish(rec, 'cancelled', undefined, 'the server is shutting down');
        rec.controller.abort(new Error('the server is shutting down'));
      }
    }
    this.tasks.clear();
  }

  private own(client: string, taskId: unknown): TaskRecord | undefined {
    if (typeof taskId !== 'string') return undefined;
    const rec = this.tasks.get(taskId);
    if (!rec || rec.client !== client) return undefined;
    if (this.expired(rec)) {
      this.drop(rec);
      return undefined;
    }
    return rec;
  }

  private expired(rec: TaskRecord): boolean {
    return this.now() >= rec.createdAt + rec.ttlMs;
  }

  /** Past its TTL a task is dropped; still running, its work is aborted first. */
  private drop(rec: TaskRecord): void {
    if (!isTerminal(rec.status)) {
      this.finish(rec, 'failed', { error: { code: -32603, message: 'the task expired' } }, 'expired');
      rec.controller.abort(new Error('the task expired'));
    }
    this.tasks.delete(rec.taskId);
  }

  private sweep(): void {
    for (const rec of [...this.tasks.values()]) if (this.expired(rec)) this.drop(rec);
  }

  /** Below `max` tasks among those `mine` selects, dropping the oldest finished ones; else TASK_LIMIT. */
  private makeRoom(mine: (t: TaskRecord) => boolean, max: number, holder: string): void {
    const held = [...this.tasks.values()].filter(mine).sort((a, b) => a.createdAt - b.createdAt);
    const finished = held.filter((t) => isTerminal(t.status));
    let excess = held.length - max + 1;
    while (excess > 0 && finished.length > 0) {
      this.tasks.delete((finished.shift() as TaskRecord).taskId);
      excess--;
    }
    if (excess > 0)
      throw new TaskLimitError(
        `${holder} already runs ${max} tasks; wait for one to finish or cancel one (tasks/cancel)`,
      );
  }

  private finish(rec: TaskRecord, status: TaskStatus, outcome?: TaskOutcome, message?: string): void {
    if (isTerminal(rec.status)) return;
    this.update(rec, {
      status,
      ...(outcome ? { outcome } : {}),
      ...(message !== undefined ? { statusMessage: message } : {}),
    });
    rec.listeners.clear();
    rec.markFinished();
  }

  private update(rec: TaskRecord, change: Partial<TaskView>): void {
    Object.assign(rec, change, { lastUpdatedAt: Math.max(this.now(), rec.lastUpdatedAt) });
    const v = view(rec);
    for (const l of [...rec.listeners]) {
      try {
        l(v);
      } catch {
        // A listener is a best-effort notification channel; the task does not depend on it.
      }
    }
  }
}

function view(rec: TaskRecord): TaskView {
  return {
    taskId: rec.taskId,
    tool: rec.tool,
    status: rec.status,
    ...(rec.statusMessage !== undefined ? { statusMessage: rec.statusMessage } : {}),
    createdAt: rec.createdAt,
    lastUpdatedAt: rec.lastUpdatedAt,
    ttlMs: rec.ttlMs,
    pollIntervalMs: rec.pollIntervalMs,
    ...(rec.outcome ? { outcome: rec.outcome } : {}),
  };
}
