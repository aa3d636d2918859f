import { existsSync, readFileSync } from 'node:fs';
import { writeJsonAtomic } from './atomic-file.ts';

/**
 * One JSON document of shared state (revocation list, IP blacklist...). Updates are serialised and
 * persisted before they resolve, so "resolved" means "survives a crash". A second implementation
 * (Redis) must keep the same contract; nothing else may keep such state in module globals.
 */
export interface DocumentStore<T> {
  read(): T;
  update(mutate: (current: T) => T): Promise<T>;
}

/** In-memory store: tests, and state that need not survive a restart. */
export class MemoryDocumentStore<T> implements DocumentStore<T> {
  private value: T;
  private queue: Promise<unknown> = Promise.resolve();
  constructor(initial: T) {
    this.value = structuredClone(initial);
  }
  read(): T {
    return this.value;
  }
  update(mutate: (current: T) => T): Promise<T> {
    const next = this.queue.then(() => {
      this.value = mutate(structuredClone(this.value));
      return this.value;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * A JSON file written atomically on every update. A file that does not parse is not silently
 * replaced: `onCorrupt` decides (the default throws), because losing a revocation list quietly
 * would re-enable revoked tokens.
 */
export class FileDocumentStore<T> implements DocumentStore<T> {
  private value: T;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    initial: () => T,
    validate: (raw: unknown) => T,
  ) {
    if (existsSync(path)) {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(path, 'utf8'));
      } catch (err) {
        throw new Error(`state file ${path} does not parse: ${(err as Error).message}`, { cause: err });
      }
      this.value = validate(raw);
    } else {
      this.value = initial();
    }
  }

  read(): T {
    return this.value;
  }

  update(mutate: (current: T) => T): Promise<T> {
    const next = this.queue.then(() => {
      const candidate = mutate(structuredClone(this.value));
      writeJsonAtomic(this.path, candidate);
      this.value = candidate;
      return candidate;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
