// Cursors that continue an AXL answer too large for an agent's context. A list or SQL answer continues
// from where it stopped: after the last key (SQL paged by pkid) or from a row offset checked against
// fingerprints of the last rows returned, so a change between pages is found rather than skipped over
// (paging.ts). Any other answer is kept for a while in memory, for the caller only, and read on from a
// byte offset. Nothing is ever dropped silently: an answer is either whole or carries a cursor.
// Cursors are signed with a key of this process: one edited by hand, or issued before a restart or by
// an older version (bare offsets, which could not see a change), is refused with a clear message.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestError, NotFoundError } from '../../../kernel/sdk/index.ts';

interface RowCursor {
  k: 'rows';
  /** Hash of client, host, operation and arguments: a cursor cannot continue another call. */
  c: string;
  skip: number;
  /** Fingerprints of the last rows returned, oldest first (offset paging). */
  t?: string[];
  /** The last key returned (keyset paging). */
  a?: string;
}

interface TextCursor {
  k: 'text';
  id: string;
  offset: number;
}

/** A numbered page of a list that pages by number (CUPI): the next page and the row the last one ended with. */
interface PageCursor {
  k: 'page';
  c: string;
  /** The next page number. */
  p: number;
  /** Identity (ObjectId) of the last row returned. */
  l: string;
}

export type AnswerCursor = RowCursor | TextCursor | PageCursor;

export function callFingerprint(client: string, host: string, operation: string, args: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([client, host.toLowerCase(), operation, args]))
    .digest('base64url')
    .slice(0, 22);
}

const KEY = randomBytes(32);
const VERSION = 2;

function mac(body: string): string {
  return createHmac('sha256', KEY).update(body).digest('base64url').slice(0, 22);
}

export function encodeCursor(c: AnswerCursor): string {
  const body = Buffer.from(JSON.stringify({ v: VERSION, ...c })).toString('base64url');
  return `${body}.${mac(body)}`;
}

const NOT_OURS =
  'cursor is not one this server issued (or the server restarted since); repeat the call without cursor';

export function decodeCursor(text: string): AnswerCursor {
  const [body = '', sig = '', ...extra] = text.split('.');
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError(NOT_OURS);
  }
  const o = (v ?? {}) as {
    v?: unknown;
    k?: unknown;
    c?: unknown;
    skip?: unknown;
    t?: unknown;
    a?: unknown;
    id?: unknown;
    offset?: unknown;
    p?: unknown;
    l?: unknown;
  };
  if (sig === '' && o.v === undefined && (o.k === 'rows' || o.k === 'text'))
    throw new BadRequestError(
      'this cursor comes from an earlier version of the server, whose bare row offsets could skip rows when the data changed between pages; repeat the call without cursor',
    );
  const want = Buffer.from(mac(body));
  const got = Buffer.from(sig);
  if (extra.length > 0 || got.length !== want.length || !timingSafeEqual(got, want) || o.v !== VERSION)
    throw new BadRequestError(NOT_OURS);
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  const tail = (t: unknown): t is string[] =>
    Array.isArray(t) && t.length <= 64 && t.every((x) => typeof x === 'string');
  if (o.k === 'rows' && typeof o.c === 'string' && count(o.skip))
    return {
      k: 'rows',
      c: o.c,
      skip: o.skip,
      ...(tail(o.t) ? { t: o.t } : {}),
      ...(typeof o.a === 'string' ? { a: o.a } : {}),
    };
  if (o.k === 'text' && typeof o.id === 'string' && count(o.offset))
    return { k: 'text', id: o.id, offset: o.offset };
  if (o.k === 'page' && typeof o.c === 'string' && count(o.p) && typeof o.l === 'string')
    return { k: 'page', c: o.c, p: o.p, l: o.l };
  throw new BadRequestError(NOT_OURS);
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
