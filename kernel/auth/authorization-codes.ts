import { MemoryDocumentStore, type DocumentStore } from '../store/document-store.ts';
import type { AppBinding } from './access-tokens.ts';
import { digest, newOpaqueToken } from './opaque-token.ts';

/** Codes live one minute (RFC 6749 section 4.1.2 recommends at most ten). */
export const CODE_TTL_MS = 60_000;

/** What a code is bound to: the token request must match every field. */
export interface CodeBinding {
  client: string;
  redirectUri: string;
  codeChallenge: string;
  /** The resource indicator of the authorization request, or null when none was sent. */
  resource: string | null;
  scope: string;
  /** The application the sign-in was for (its client_id must redeem the code), or null for a client's own. */
  app: AppBinding | null;
}

interface CodeEntry extends CodeBinding {
  exp: number;
  used: boolean;
  /** Tokens obtained with the code, revoked if the code is presented again (RFC 6749 section 4.1.2). */
  issued: { jti: string; exp: number; family?: string }[];
}

export type CodeRedeem =
  | { ok: true; binding: CodeBinding; key: string }
  | { ok: false; reason: 'unknown' | 'expired' }
  | { ok: false; reason: 'reused'; issued: CodeEntry['issued']; client: string; app: AppBinding | null };

/**
 * Authorization codes: single use, short-lived, stored as digests. Memory by default (a restart simply
 * ends pending logins); behind the DocumentStore interface so several instances can share them.
 */
export class AuthorizationCodes {
  constructor(
    private readonly store: DocumentStore<Record<string, CodeEntry>> = new MemoryDocumentStore({}),
    private readonly now: () => number = Date.now,
  ) {}

  async create(binding: CodeBinding): Promise<string> {
    const code = newOpaqueToken();
    const now = this.now();
    await this.store.update((t) => {
      const live = Object.fromEntries(Object.entries(t).filter(([, e]) => e.exp > now));
      return { ...live, [digest(code)]: { ...binding, exp: now + CODE_TTL_MS, used: false, issued: [] } };
    });
    return code;
  }

  /** Spends a code; a spent code stays known until it expires so that its reuse can be detected. */
  async redeem(code: string): Promise<CodeRedeem> {
    const key = digest(code);
    const now = this.now();
    let result: CodeRedeem = { ok: false, reason: 'unknown' };
    await this.store.update((t) => {
      const entry = t[key];
      if (!entry) return t;
      if (entry.used) {
        result = { ok: false, reason: 'reused', issued: entry.issued, client: entry.client, app: entry.app };
        t[key] = { ...entry, issued: [] };
        return t;
      }
      if (entry.exp <= now) {
        result = { ok: false, reason: 'expired' };
        delete t[key];
        return t;
      }
      t[key] = { ...entry, used: true };
      const { client, redirectUri, codeChallenge, resource, scope, app } = entry;
      result = { ok: true, key, binding: { client, redirectUri, codeChallenge, resource, scope, app } };
      return t;
    });
    return result;
  }

  /** Records what a redeemed code produced, for revocation on reuse. */
  async recordIssued(key: string, issued: CodeEntry['issued'][number]): Promise<void> {
    await this.store.update((t) => {
      const entry = t[key];
      if (entry) t[key] = { ...entry, issued: [...entry.issued, issued] };
      return t;
    });
  }
}
