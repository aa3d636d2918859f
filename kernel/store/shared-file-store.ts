import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeJsonAtomic } from './atomic-file.ts';
import type { DocumentStore } from './document-store.ts';

/**
 * A JSON file that another process (an operator command) may change while the server runs: every read
 * notices a replaced file (atomic writes replace the inode) and loads it again, and every update starts
 * from the file as it is now. A file that does not validate at startup throws; one that stops
 * validating later keeps the last good content in memory, so a bad hand edit never drops state
 * unnoticed, and `problem` says why.
 */
export class SharedFileStore<T> implements DocumentStore<T> {
  private value: T;
  private seen = '';
  private queue: Promise<unknown> = Promise.resolve();
  /** Why the file on disk was not taken, while it is not; null when it was. */
  problem: string | null = null;

  constructor(
    private readonly path: string,
    private readonly initial: () => T,
    private readonly validate: (raw: unknown) => T,
  ) {
    this.value = initial();
    const loaded = this.load();
    if (loaded) throw new Error(loaded);
  }

  read(): T {
    this.load();
    return this.value;
  }

  update(mutate: (current: T) => T): Promise<T> {
    const next = this.queue.then(() => {
      this.load();
      const candidate = mutate(structuredClone(this.value));
      writeJsonAtomic(this.path, candidate);
      this.value = candidate;
      this.seen = signature(this.path);
      return candidate;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Loads the file when it changed since last seen; the reason it could not, or null. */
  private load(): string | null {
    const now = signature(this.path);
    if (now === this.seen) return null;
    try {
      this.value = existsSync(this.path)
        ? this.validate(JSON.parse(readFileSync(this.path, 'utf8')))
        : this.initial();
      this.problem = null;
    } catch (err) {
      this.problem = `${this.path}: ${(err as Error).message}`;
      return this.problem;
    } finally {
      this.seen = now;
    }
    return null;
  }
}

/** What tells a replaced or rewritten file apart: inode, size and modification time. */
function signature(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return 'absent';
  }
}
