/**
 * Admission to PDF export: at most `slots` exports at once over all clients, and one at a time per
 * client. A client's further exports wait behind its own, so one client flooding exports holds at most
 * one slot and every other client still reaches the others. Each export is bounded in time, so every
 * wait is too.
 */
export class ExportGate {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly perClient = new Map<string, Promise<unknown>>();

  constructor(private readonly slots: number) {}

  run<T>(client: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const prev = this.perClient.get(client) ?? Promise.resolve();
    const mine = prev.then(async () => {
      signal?.throwIfAborted();
      await this.acquire();
      try {
        signal?.throwIfAborted();
        const out = await fn();
        // A render in progress is not interrupted (it is bounded in time), but a cancelled export's
        // PDF is never handed on to be written.
        signal?.throwIfAborted();
        return out;
      } finally {
        this.release();
      }
    });
    const tail = mine.catch(() => undefined);
    this.perClient.set(client, tail);
    void tail.then(() => {
      if (this.perClient.get(client) === tail) this.perClient.delete(client);
    });
    return mine;
  }

  private acquire(): Promise<void> {
    if (this.running < this.slots) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next waiter; `running` only drops when nobody waits.
    if (next) next();
    else this.running--;
  }
}
