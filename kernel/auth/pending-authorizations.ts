import { z } from 'zod';
import { RateLimitedError } from '../errors/index.ts';
import type { RecordStore, StateBackend } from '../store/backend/state-backend.ts';
import { MemoryDocumentStore, type DocumentStore } from '../store/document-store.ts';
import type { SlidingWindowStore } from '../store/sliding-window.ts';
import type { AppBinding } from './access-tokens.ts';
import { digest, newOpaqueToken } from './opaque-token.ts';

/** Time a person has to fill in the login form. */
export const LOGIN_TTL_MS = 10 * 60_000;
/** GET /authorize needs no credentials, so the forms in flight are capped; the oldest give way. */
export const MAX_PENDING = 10_000;

/** A validated GET /authorize request waiting for the login form. */
export interface AuthorizationRequest {
  /** The configured client asked for; null when an application asks (the person picks the client). */
  client: string | null;
  /** The application asking, or null when a configured client asks for itself. */
  app: AppBinding | null;
  redirectUri: string;
  codeChallenge: string;
  resource: string | null;
  scope: string;
  state: string | null;
}

interface PendingEntry extends AuthorizationRequest {
  exp: number;
  /** Digest of the browser-binding cookie set with the form. */
  browser: string;
}

const entrySchema: z.ZodType<PendingEntry> = z.object({
  client: z.string().nullable(),
  app: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  redirectUri: z.string(),
  codeChallenge: z.string(),
  resource: z.string().nullable(),
  scope: z.string(),
  state: z.string().nullable(),
  exp: z.number(),
  browser: z.string(),
});

/** Where the forms in flight are kept, by the digest of their CSRF token. */
interface PendingTable {
  add(key: string, entry: PendingEntry, now: number): Promise<void>;
  /** Removes the entry and returns it; of several takers (instances), exactly one gets it. */
  take(key: string): Promise<PendingEntry | undefined>;
}

/**
 * Login forms in flight. The form's CSRF token names one entry, is single use and short-lived, and
 * only works together with the cookie set on the browser that loaded the form.
 */
export class PendingAuthorizations {
  private readonly table: PendingTable;

  constructor(
    store: DocumentStore<Record<string, PendingEntry>> | PendingTable = new MemoryDocumentStore({}),
    private readonly now: () => number = Date.now,
    max: number = MAX_PENDING,
  ) {
    this.table = 'add' in store ? store : new DocumentTable(store, max);
  }

  /** Registers a request; returns the CSRF token for the form and the value of the binding cookie. */
  async create(request: AuthorizationRequest): Promise<{ csrf: string; browser: string }> {
    const csrf = newOpaqueToken();
    const browser = newOpaqueToken();
    const now = this.now();
    await this.table.add(
      digest(csrf),
      { ...request, exp: now + LOGIN_TTL_MS, browser: digest(browser) },
      now,
    );
    return { csrf, browser };
  }

  /** Takes (and removes) the request a form submission names, if it is live and from the same browser. */
  async take(csrf: string, browser: string | undefined): Promise<AuthorizationRequest | null> {
    const entry = await this.table.take(digest(csrf));
    if (!entry || entry.exp <= this.now() || browser === undefined || digest(browser) !== entry.browser)
      return null;
    const { client, app, redirectUri, codeChallenge, resource, scope, state } = entry;
    return { client, app, redirectUri, codeChallenge, resource, scope, state };
  }
}

/** The forms in one document (this process's memory with the local backend); the oldest give way. */
class DocumentTable implements PendingTable {
  constructor(
    private readonly store: DocumentStore<Record<string, PendingEntry>>,
    private readonly max: number,
  ) {}

  async add(key: string, entry: PendingEntry, now: number): Promise<void> {
    await this.store.update((t) => {
      let live = Object.entries(t).filter(([, e]) => e.exp > now);
      if (live.length >= this.max)
        live = live.sort(([, a], [, b]) => a.exp - b.exp).slice(live.length - this.max + 1);
      return { ...Object.fromEntries(live), [key]: entry };
    });
  }

  async take(key: string): Promise<PendingEntry | undefined> {
    if (!this.store.read()[key]) return undefined;
    let found: PendingEntry | undefined;
    await this.store.update((t) => {
      found = t[key];
      delete t[key];
      return t;
    });
    return found;
  }
}

/**
 * The forms as records of a shared store, one per form, each expiring with its form: any instance
 * serves the submission of a form another one sent, once. Not one document: GET /authorize needs no
 * credentials, and a document of thousands of forms rewritten (and loaded again by every instance) at
 * each would be work for the asking. The cap is a window of forms sent in the last LOGIN_TTL_MS across
 * the instances; when it is full a new form is refused (429) rather than an older one dropped, which a
 * record store cannot do.
 */
export class RecordPendingTable implements PendingTable {
  constructor(
    private readonly records: RecordStore,
    private readonly windows: SlidingWindowStore,
    private readonly max: number = MAX_PENDING,
  ) {}

  async add(key: string, entry: PendingEntry, now: number): Promise<void> {
    const hit = await this.windows.hit('oauth-pending', LOGIN_TTL_MS, this.max, now);
    if (!hit.admitted)
      throw new RateLimitedError(
        'too many sign-ins are in progress; try again shortly',
        Math.max(1, Math.ceil(hit.retryAfterMs / 1000)),
      );
    await this.records.set(`oauth-pending:${key}`, JSON.stringify(entry), Math.max(1, entry.exp - now));
  }

  async take(key: string): Promise<PendingEntry | undefined> {
    const raw = await this.records.take(`oauth-pending:${key}`);
    if (raw === undefined) return undefined;
    try {
      const r = entrySchema.safeParse(JSON.parse(raw));
      return r.success ? r.data : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The forms on the state backend: this process's memory with the local backend (as always), one record
 * per form with a shared store.
 */
export function pendingAuthorizationsOn(
  state: StateBackend,
  now: () => number = Date.now,
): PendingAuthorizations {
  return state.kind === 'local'
    ? new PendingAuthorizations(new MemoryDocumentStore({}), now)
    : new PendingAuthorizations(new RecordPendingTable(state.records, state.windows), now);
}
