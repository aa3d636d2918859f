import bcrypt from 'bcrypt';

export interface CompareTally {
  calls: number;
  running: number;
  maxRunning: number;
}

export interface BcryptSpy {
  /** Every comparison, and those of each class (`classify` of the presented secret). */
  all: CompareTally;
  of(kind: string): CompareTally;
  /** Zeroes the counts (comparisons still running stay counted as running). */
  reset(): void;
  /**
   * Holds every comparison that starts from now on until the returned function is called, so a test
   * decides when checks finish instead of the machine's speed.
   */
  hold(): () => void;
  restore(): void;
}

/**
 * Counts the real bcrypt comparisons of an in-process kernel and how many run at once (from the call
 * until its promise settles: queued on the thread pool counts as running, which is the cost a flood
 * imposes). The comparison itself is the real one, only possibly held back by `hold`.
 */
export function spyBcryptCompare(classify: (presented: string) => string = () => 'any'): BcryptSpy {
  const lib = bcrypt as unknown as { compare: (data: string, hash: string) => Promise<boolean> };
  const original = lib.compare;
  const fresh = (): CompareTally => ({ calls: 0, running: 0, maxRunning: 0 });
  const all = fresh();
  const kinds = new Map<string, CompareTally>();
  const of = (kind: string): CompareTally => {
    let t = kinds.get(kind);
    if (!t) kinds.set(kind, (t = fresh()));
    return t;
  };
  let gate: Promise<void> = Promise.resolve();
  lib.compare = async (data: string, hash: string): Promise<boolean> => {
    const tallies = [all, of(classify(data))];
    for (const t of tallies) {
      t.calls++;
      t.running++;
      t.maxRunning = Math.max(t.maxRunning, t.running);
    }
    try {
      await gate;
      return await original.call(bcrypt, data, hash);
    } finally {
      for (const t of tallies) t.running--;
    }
  };
  const reset = (): void => {
    for (const t of [all, ...kinds.values()]) {
      t.calls = 0;
      t.maxRunning = t.running;
    }
  };
  const hold = (): (() => void) => {
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      gate = Promise.resolve();
      release();
    };
  };
  return { all, of, reset, hold, restore: () => void (lib.compare = original) };
}
