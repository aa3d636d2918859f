// The `state_info` cursor a query returns when it stops early: the node's StateInfo (to page on) and a
// reference to what this server already returned for the query (so a device a later page reports again
// from another node is not returned twice). The reference is held in memory per caller for 15 minutes;
// without it (a restart) the query still continues, only de-duplication across calls is lost.
import { createHash, randomBytes } from 'node:crypto';
import { BadRequestError } from '../../../kernel/sdk/index.ts';

interface CursorBody {
  v: 1;
  /** Held de-duplication state. */
  id: string;
  /** The node's StateInfo. */
  s: string;
  /** The query it belongs to (caller, host, operation, criteria). */
  f: string;
}

export function queryFingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

export function encodeCursor(id: string, stateInfo: string, fingerprint: string): string {
  const body: CursorBody = { v: 1, id, s: stateInfo, f: fingerprint };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export function decodeCursor(text: string): { id: string; stateInfo: string; fingerprint: string } {
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    throw new BadRequestError('state_info is not a cursor this tool returned');
  }
  if (body.v !== 1 || typeof body.id !== 'string' || typeof body.s !== 'string' || typeof body.f !== 'string')
    throw new BadRequestError('state_info is not a cursor this tool returned');
  return { id: body.id, stateInfo: body.s, fingerprint: body.f };
}

interface Held {
  owner: string;
  scores: Map<string, number>;
  expires: number;
}

export class ContinuationStore {
  readonly #held = new Map<string, Held>();

  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly maxHeld = 256,
  ) {}

  /** What earlier calls of this query returned (name to usefulness), or undefined when it is gone. */
  get(owner: string, id: string): Map<string, number> | undefined {
    this.#sweep();
    const h = this.#held.get(id);
    return h && h.owner === owner ? h.scores : undefined;
  }

  /** Records what this call returned, merged into the earlier ones; returns the id for the next cursor. */
  save(owner: string, id: string | undefined, returned: ReadonlyMap<string, number>): string {
    const known = id === undefined ? undefined : this.#held.get(id);
    const key = known && known.owner === owner ? (id as string) : randomBytes(12).toString('base64url');
    const scores = known && known.owner === owner ? known.scores : new Map<string, number>();
    for (const [name, score] of returned) scores.set(name, Math.max(score, scores.get(name) ?? -1));
    this.#held.delete(key);
    this.#held.set(key, { owner, scores, expires: Date.now() + this.ttlMs });
    while (this.#held.size > this.maxHeld) {
      const oldest = this.#held.keys().next().value;
      if (oldest === undefined) break;
      this.#held.delete(oldest);
    }
    return key;
  }

  /** The query finished: nothing more will continue it. */
  drop(id: string | undefined): void {
    if (id !== undefined) this.#held.delete(id);
  }

  clear(): void {
    this.#held.clear();
  }

  #sweep(): void {
    const now = Date.now();
    for (const [k, h] of this.#held) if (h.expires <= now) this.#held.delete(k);
  }
}
