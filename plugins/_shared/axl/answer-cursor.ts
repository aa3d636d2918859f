// Cursors that continue an AXL answer too large for an agent's context. A list or SQL answer continues
// by re-reading from a row offset (the cursor names the call it belongs to); any other answer is kept
// for a while in memory, for the caller only, and read on from a byte offset. Nothing is ever dropped
// silently: an answer is either whole or carries a cursor.
import { createHash, randomBytes } from 'node:crypto';
import { BadRequestError, NotFoundError } from '../../../kernel/sdk/index.ts';

interface RowCursor {
  k: 'rows';
  /** Hash of client, host, operation and arguments: a cursor cannot continue another call. */
  c: string;
  skip: number;
}

interface TextCursor {
  k: 'text';
  id: string;
  offset: number;
}

export type AnswerCursor = RowCursor | TextCursor;

export function callFingerprint(client: string, host: string, operation: string, args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([client, host.toLowerCase(), operation, args]))
    .digest('base64url')
    .slice(0, 22);
}

export function encodeCursor(c: AnswerCursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(text: string): AnswerCursor {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError('cursor is not one this server issued');
  }
  const o = (v ?? {}) as { k?: unknown; c?: unknown; skip?: unknown; id?: unknown; offset?: unknown };
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (o.k === 'rows' && typeof o.c === 'string' && count(o.skip)) return { k: 'rows', c: o.c, skip: o.skip };
  if (o.k === 'text' && typeof o.id === 'string' && count(o.offset))
    return { k: 'text', id: o.id, offset: o.offset };
  throw new BadRequestError('cursor is not one this server issued');
}

interface Held {
  owner: string;
  text: string;
  expires: number;
}

/** Large single answers held for continuation: bounded in count, bytes and time. */
export class HeldAnswers {
  readonly #held = new Map<string, Held>();
  #bytes = 0;

  constructor(
    private readonly ttlMs = 15 * 60_000,
    private readonly maxBytes = 256 * 1024 * 1024,
  ) {}

  /** Keeps `text` for `owner`; returns its id. The oldest answers make room. */
  hold(owner: string, text: string): string {
    this.#expire();
    const id = randomBytes(12).toString('base64url');
    this.#held.set(id, { owner, text, expires: Date.now() + this.ttlMs });
    this.#bytes += text.length;
    for (const [k, h] of this.#held) {
      if (this.#bytes <= this.maxBytes || k === id) break;
      this.#held.delete(k);
      this.#bytes -= h.text.length;
    }
    return id;
  }

  /** A slice of a held answer; NotFoundError when it expired or belongs to another caller. */
  slice(owner: string, id: string, offset: number, maxChars: number): { text: string; total: number } {
    this.#expire();
    const h = this.#held.get(id);
    if (!h || h.owner !== owner)
      throw new NotFoundError('this answer is no longer held (it expires after 15 minutes); repeat the call');
    if (offset > h.text.length) throw new BadRequestError('cursor offset is past the end of the answer');
    let end = Math.min(h.text.length, offset + maxChars);
    // Never end a part between the two halves of a surrogate pair.
    const last = h.text.charCodeAt(end - 1);
    if (end < h.text.length && end - 1 > offset && last >= 0xd800 && last <= 0xdbff) end--;
    return { text: h.text.slice(offset, end), total: h.text.length };
  }

  #expire(): void {
    const now = Date.now();
    for (const [k, h] of this.#held) {
      if (h.expires <= now) {
        this.#held.delete(k);
        this.#bytes -= h.text.length;
      }
    }
  }
}
