import { MemoryDocumentStore, type DocumentStore } from '../store/document-store.ts';
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

/**
 * Login forms in flight. The form's CSRF token names one entry, is single use and short-lived, and
 * only works together with the cookie set on the browser that loaded the form.
 */
export class PendingAuthorizations {
  constructor(
    private readonly store: DocumentStore<Record<string, PendingEntry>> = new MemoryDocumentStore({}),
    private readonly now: () => number = Date.now,
    private readonly max: number = MAX_PENDING,
  ) {}

  /** Registers a request; returns the CSRF token for the form and the value of the binding cookie. */
  async create(request: AuthorizationRequest): Promise<{ csrf: string; browser: string }> {
    const csrf = newOpaqueToken();
    const browser = newOpaqueToken();
    const now = this.now();
    await this.store.update((t) => {
      let live = Object.entries(t).filter(([, e]) => e.exp > now);
      if (live.length >= this.max)
        live = live.sort(([, a], [, b]) => a.exp - b.exp).slice(live.length - this.max + 1);
      return {
        ...Object.fromEntries(live),
        [digest(csrf)]: { ...request, exp: now + LOGIN_TTL_MS, browser: digest(browser) },
      };
    });
    return { csrf, browser };
  }

  /** Takes (and removes) the request a form submission names, if it is live and from the same browser. */
  async take(csrf: string, browser: string | undefined): Promise<AuthorizationRequest | null> {
    const key = digest(csrf);
    const now = this.now();
    let found: AuthorizationRequest | null = null;
    if (!this.store.read()[key]) return null;
    await this.store.update((t) => {
      const entry = t[key];
      if (!entry) return t;
      delete t[key];
      if (entry.exp > now && browser !== undefined && digest(browser) === entry.browser) {
        const { client, app, redirectUri, codeChallenge, resource, scope, state } = entry;
        found = { client, app, redirectUri, codeChallenge, resource, scope, state };
      }
      return t;
    });
    return found;
  }
}
