// PerfMon sessions of one node: handles from perfmonOpenSession, the counters added to each, and the
// previous sample of each percentage counter (its value needs two). The limits are the lab's: no public
// Cisco document we read gives a figure for sessions per node or counters per session.
import { randomUUID } from 'node:crypto';

/** Open sessions one node keeps (lab choice). */
export const MAX_SESSIONS = 10;
/** Counters one session may hold (lab choice). */
export const MAX_COUNTERS_PER_SESSION = 50;
/** A session nobody used for this long is dropped (lab choice), as an abandoned one would be. */
export const SESSION_IDLE_MS = 30 * 60_000;

export interface PerfmonSession {
  handle: string;
  /** Counter paths as added, in order. */
  counters: string[];
  /** Percentage counters already sampled once (their next collection has a value). */
  sampled: Set<string>;
  usedAt: number;
}

export class PerfmonSessions {
  readonly #byHandle = new Map<string, PerfmonSession>();

  open(now = Date.now()): PerfmonSession | undefined {
    this.#expire(now);
    if (this.#byHandle.size >= MAX_SESSIONS) return undefined;
    // The real handle is a GUID in braces (a node's answers show one); the lab's has the same shape.
    const session: PerfmonSession = {
      handle: `{${randomUUID().toUpperCase()}}`,
      counters: [],
      sampled: new Set(),
      usedAt: now,
    };
    this.#byHandle.set(session.handle, session);
    return session;
  }

  get(handle: string, now = Date.now()): PerfmonSession | undefined {
    this.#expire(now);
    const s = this.#byHandle.get(handle);
    if (s) s.usedAt = now;
    return s;
  }

  close(handle: string): boolean {
    return this.#byHandle.delete(handle);
  }

  get size(): number {
    return this.#byHandle.size;
  }

  #expire(now: number): void {
    for (const [h, s] of this.#byHandle) if (now - s.usedAt > SESSION_IDLE_MS) this.#byHandle.delete(h);
  }
}
