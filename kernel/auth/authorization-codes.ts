import { z } from 'zod';
import type { StateBackend } from '../store/backend/state-backend.ts';
import { MemoryDocumentStore, type DocumentStore } from '../store/document-store.ts';
import type { AppBinding } from './access-tokens.ts';
import { openJsonDocument } from './json-store.ts';
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

/** What a shared store must hold (a value of another shape is not taken). */
const codeTableSchema: z.ZodType<Record<string, CodeEntry>> = z.record(
  z.string(),
  z.object({
    client: z.string(),
    redirectUri: z.string(),
    codeChallenge: z.string(),
    resource: z.string().nullable(),
    scope: z.string(),
    app: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
    exp: z.number(),
    used: z.boolean(),
    issued: z.array(
      z.object({ jti: z.string(), exp: z.number(), family: z.string().optional() }).transform((i) => {
        const { family, ...rest } = i;
        return family === undefined ? rest : { ...rest, family };
      }),
    ),
  }),
);

/**
 * The codes on the state backend: this process's memory with the local backend (a restart ends pending
 * logins, as always), the document `authorization-codes` with a shared store, so that a code issued by
 * one instance is redeemed at another, once: each redemption is one atomic update of the document.
 */
export async function openAuthorizationCodesOn(
  state: StateBackend,
  now: () => number = Date.now,
): Promise<AuthorizationCodes> {
  return new AuthorizationCodes(
    await openJsonDocument(state, 'authorization-codes', codeTableSchema, () => ({})),
    now,
  );
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
      // Decided afresh on each run: with a shared store `mutate` runs again after a concurrent write.
      result = { ok: false, reason: 'unknown' };
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
