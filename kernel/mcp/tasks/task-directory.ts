import type { StateBackend } from '../../store/backend/state-backend.ts';
import { isTerminal, type TaskStore, type TaskView, type TaskWork } from './task-store.ts';

/** A task's record in the shared store: whose it is, and its view as last written. */
interface TaskRecord {
  client: string;
  view: TaskView;
}

/** A status message is written to the store at most this often (the terminal state always is). */
const WRITE_EVERY_MS = 1000;
/** How long a cancel through another instance waits to see the owner's `cancelled`. */
const CANCEL_WAIT_MS = 2000;
const CANCEL_CHANNEL = 'mcp.task.cancel';

const taskKey = (id: string) => `task:${id}`;
const clientPrefix = (client: string) => `task-of:${encodeURIComponent(client)}:`;

/**
 * The MCP task methods' view of the tasks: this instance's TaskStore and, with a shared store (several
 * instances), every other instance's too. A task's work runs where it started (its handler, its open
 * node connections and its abort controller cannot move); its state is written to the store as it
 * changes (`task:<id>`, expiring with the task), so tasks/get, tasks/result and tasks/list through any
 * instance see it, and tasks/cancel through another instance is passed over the bus to the one running
 * it. With the local backend every method is the TaskStore's own, unchanged.
 *
 * Bounds: the per-client and total task limits count the tasks of this instance (each instance holds at
 * most that many; N instances, N times). A lost cancel notice leaves the task running until its TTL, as
 * an instance that dies leaves its tasks `working` until their records expire.
 */
export class TaskDirectory {
  private readonly shared: StateBackend | undefined;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    readonly store: TaskStore,
    state?: StateBackend,
  ) {
    this.shared = state?.kind === 'redis' ? state : undefined;
    this.unsubscribe = this.shared?.bus.subscribe(CANCEL_CHANNEL, (m) => {
      try {
        const { client, taskId } = JSON.parse(m) as { client: string; taskId: string };
        this.store.cancel(client, taskId);
      } catch {
        // Not a notice of ours.
      }
    });
  }

  /** Starts the task here; with a shared store its record follows every change. */
  start(client: string, tool: string, work: TaskWork, requestedTtlMs?: number): TaskView {
    const view = this.store.start(client, tool, work, requestedTtlMs);
    if (this.shared) this.mirror(client, view);
    return view;
  }

  watch(client: string, taskId: string, listener: (view: TaskView) => void): () => void {
    return this.store.watch(client, taskId, listener);
  }

  async get(client: string, taskId: unknown): Promise<TaskView | undefined> {
    return this.store.get(client, taskId) ?? (await this.remote(client, taskId));
  }

  /** Waits for the end of the task, here or (polling its record) on whichever instance runs it. */
  async settled(client: string, taskId: unknown, signal?: AbortSignal): Promise<TaskView | undefined> {
    if (this.store.get(client, taskId) || !this.shared) return this.store.settled(client, taskId, signal);
    for (;;) {
      const v = await this.remote(client, taskId);
      if (!v || isTerminal(v.status)) return v;
      await pause(v.pollIntervalMs, signal);
    }
  }

  async list(client: string): Promise<TaskView[]> {
    const here = this.store.list(client);
    if (!this.shared) return here;
    const held = new Set(here.map((t) => t.taskId));
    const prefix = clientPrefix(client);
    const ids = (await this.shared.records.keys(prefix)).map((k) => k.slice(prefix.length));
    const elsewhere = await Promise.all(
      ids.filter((id) => !held.has(id)).map((id) => this.remote(client, id)),
    );
    return [...here, ...elsewhere.filter((v): v is TaskView => v !== undefined)].sort(
      (a, b) => b.createdAt - a.createdAt,
    );
  }

  /** Cancels here, or asks the instance running it (and waits a moment to report the outcome). */
  async cancel(client: string, taskId: unknown): Promise<TaskView | undefined> {
    if (this.store.get(client, taskId) || !this.shared) return this.store.cancel(client, taskId);
    const v = await this.remote(client, taskId);
    if (!v || isTerminal(v.status)) return v;
    await this.shared.bus.publish(CANCEL_CHANNEL, JSON.stringify({ client, taskId }));
    const until = Date.now() + CANCEL_WAIT_MS;
    let now = v;
    while (!isTerminal(now.status) && Date.now() < until) {
      await pause(50);
      now = (await this.remote(client, taskId)) ?? now;
    }
    return now;
  }

  close(): void {
    this.unsubscribe?.();
    this.store.close();
  }

  private async remote(client: string, taskId: unknown): Promise<TaskView | undefined> {
    if (!this.shared || typeof taskId !== 'string' || taskId.length > 64) return undefined;
    const raw = await this.shared.records.get(taskKey(taskId));
    if (raw === undefined) return undefined;
    const rec = JSON.parse(raw) as TaskRecord;
    return rec.client === client ? rec.view : undefined;
  }

  /** Writes the task's record now and at its changes (status messages at most every WRITE_EVERY_MS). */
  private mirror(client: string, first: TaskView): void {
    const shared = this.shared as StateBackend;
    const expiresAt = first.createdAt + first.ttlMs;
    let latest = first;
    let writing: Promise<void> | undefined;
    let lastWrite = 0;
    let timer: NodeJS.Timeout | undefined;
    const write = (): void => {
      if (writing) return;
      const v = latest;
      const ttl = Math.max(1, expiresAt - Date.now());
      lastWrite = Date.now();
      writing = Promise.all([
        shared.records.set(taskKey(v.taskId), JSON.stringify({ client, view: v } satisfies TaskRecord), ttl),
        shared.records.set(`${clientPrefix(client)}${v.taskId}`, '1', ttl),
      ])
        .then(() => undefined)
        // The store is down: the task goes on; the next change (or the end) writes again.
        .catch(() => undefined)
        .finally(() => {
          writing = undefined;
          if (latest !== v && (isTerminal(latest.status) || Date.now() - lastWrite >= WRITE_EVERY_MS))
            write();
        });
    };
    write();
    this.store.watch(client, first.taskId, (v) => {
      latest = v;
      if (isTerminal(v.status) || Date.now() - lastWrite >= WRITE_EVERY_MS) {
        if (timer) clearTimeout(timer);
        write();
      } else if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          write();
        }, WRITE_EVERY_MS);
        timer.unref();
      }
    });
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
