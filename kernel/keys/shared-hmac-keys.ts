import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFileExclusive } from '../store/atomic-file.ts';

/** A new key every day; the previous day's still verifies (every sealed value lives minutes). */
export const SHARED_KEY_PERIOD_MS = 86_400_000;
/** How often an instance looks at the key folder again when a value verifies under none of its keys. */
const RESCAN_MS = 1000;
const NAME = /^(\d{1,15})\.key$/;

/**
 * Where MACs come from: the key to sign with now, and the keys a value may have been signed with.
 * A value that verifies under none of them may have been signed with a key another instance created a
 * moment ago: `refresh` looks again (true when it found a key it did not know).
 */
export interface HmacKeySource {
  signing(): Buffer;
  verifying(): Buffer[];
  refresh(): boolean;
}

/** One fixed key (one process: a restart voids what it signed). */
export function fixedKey(key: Buffer): HmacKeySource {
  return { signing: () => key, verifying: () => [key], refresh: () => false };
}

/**
 * HMAC keys that several instances sharing the state directory agree on (secrets/shared-keys/, 0600):
 * a value one instance sealed (a tool's multi-round-trip state, a download link) verifies on whichever
 * instance the next request lands. One key per period, in a file named by the period's start: every
 * instance computes the same name, and the file is created with an exclusive create, so two instances
 * starting (or rotating) at once agree on the one that was written first. Signing uses the current
 * period's key; the previous period's still verifies, older ones are deleted. Each purpose gets a key of
 * its own derived from the file's (HMAC of the purpose), so one purpose's value never verifies as another's.
 */
export class SharedHmacKeys {
  private readonly dir: string;
  /** Period start -> key, as read from the folder. */
  private readonly keys = new Map<number, Buffer>();
  private lastScan = 0;

  constructor(
    secretsDir: string,
    private readonly clock: () => number = Date.now,
    private readonly periodMs = SHARED_KEY_PERIOD_MS,
  ) {
    this.dir = join(secretsDir, 'shared-keys');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.current();
  }

  /** The keys of one purpose ("mcp.requestState", "download-links"). */
  forPurpose(purpose: string): HmacKeySource {
    const derive = (k: Buffer) => createHmac('sha256', k).update(`uc-mcp.${purpose}`).digest();
    return {
      signing: () => derive(this.current()),
      verifying: () => this.live().map(derive),
      refresh: () => this.rescan(),
    };
  }

  /** The current period's key, created (exclusively) when this instance is the first to need it. */
  private current(): Buffer {
    const start = Math.floor(this.clock() / this.periodMs) * this.periodMs;
    const known = this.keys.get(start);
    if (known) return known;
    const path = join(this.dir, `${start}.key`);
    // Written whole to a private temporary file, then linked into place: the first instance wins and
    // no instance ever reads a half-written key.
    createFileExclusive(path, randomBytes(32).toString('hex'));
    this.rescan(true);
    const key = this.keys.get(start);
    if (!key) throw new Error(`the shared key ${path} is unreadable`);
    return key;
  }

  /** Keys of the current and the previous period (newest first). */
  private live(): Buffer[] {
    const now = this.clock();
    this.current();
    return [...this.keys.entries()]
      .filter(([start]) => start > now - 2 * this.periodMs)
      .sort((a, b) => b[0] - a[0])
      .map(([, k]) => k);
  }

  private rescan(force = false): boolean {
    const now = this.clock();
    if (!force && now - this.lastScan < RESCAN_MS) return false;
    this.lastScan = now;
    let found = false;
    for (const name of readdirSync(this.dir)) {
      const m = NAME.exec(name);
      if (!m) continue;
      const start = Number(m[1]);
      const path = join(this.dir, name);
      if (start <= now - 3 * this.periodMs) {
        // Past any value's life: removed by whichever instance sees it first.
        rmSync(path, { force: true });
        this.keys.delete(start);
        continue;
      }
      if (this.keys.has(start)) continue;
      const hex = readFileSync(path, 'utf8').trim();
      if (!/^[0-9a-f]{64}$/.test(hex)) continue;
      this.keys.set(start, Buffer.from(hex, 'hex'));
      found = true;
    }
    return found;
  }
}
