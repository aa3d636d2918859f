import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { StateBackend } from '../store/backend/state-backend.ts';
import type { DocumentStore } from '../store/document-store.ts';
import { openJsonDocument, openJsonStore } from './json-store.ts';
import { digest, newOpaqueToken } from './opaque-token.ts';

const entrySchema = z.object({
  client: z.string(),
  /** Every refresh token descended from one grant shares a family; reuse of a spent one ends it. */
  family: z.string(),
  exp: z.number(),
  scope: z.string(),
  /** The server key in force at issuance: a key rotation ends every refresh token. */
  kid: z.string(),
  used: z.boolean(),
  /** The access token issued together with this refresh token (revoked with the family). */
  access: z.object({ jti: z.string(), exp: z.number() }),
  /** The application the grant was made through: only its client_id may present the token. */
  app: z.object({ id: z.string(), name: z.string().nullable() }).optional(),
});
export type RefreshEntry = z.output<typeof entrySchema>;
type RefreshTable = Record<string, RefreshEntry>;
const tableSchema = z.record(z.string(), entrySchema);

export type RedeemResult =
  | { ok: true; entry: RefreshEntry }
  | { ok: false; reason: 'unknown' | 'expired' | 'wrong_client' | 'rotated_key' }
  | {
      ok: false;
      reason: 'reused';
      family: string;
      revoked: { jti: string; exp: number }[];
      /** The client the family was granted to. */
      client: string;
    };

/**
 * Opaque refresh tokens, stored as SHA-256 digests (secrets/refresh_tokens.json). Each use spends the
 * token and the caller gets a new one in the same family; presenting a spent token again is treated as
 * theft (RFC 9700 section 4.14.2): the whole family and its access tokens are revoked.
 *
 * Ending a family takes three steps, so that a crash at any point loses no revocation: every token of
 * the family is spent (none can be redeemed any more), the caller puts the family's access tokens on
 * the revocation list, then drops the family (`dropFamily`). Until it is dropped, presenting any of its
 * tokens again (a retried /revoke, a refresh) finds it and revokes its access tokens again.
 */
export class RefreshTokenStore {
  constructor(
    private readonly store: DocumentStore<RefreshTable>,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(opts: {
    client: string;
    family?: string;
    scope: string;
    kid: string;
    ttlSeconds: number;
    access: { jti: string; exp: number };
    app?: { id: string; name: string | null };
  }): Promise<{ token: string; exp: number; family: string }> {
    const token = newOpaqueToken();
    const family = opts.family ?? randomUUID();
    const exp = Math.floor(this.now() / 1000) + opts.ttlSeconds;
    const entry: RefreshEntry = {
      client: opts.client,
      family,
      exp,
      scope: opts.scope,
      kid: opts.kid,
      used: false,
      access: opts.access,
      ...(opts.app ? { app: opts.app } : {}),
    };
    await this.store.update((t) => ({ ...this.live(t), [digest(token)]: entry }));
    return { token, exp, family };
  }

  /**
   * Spends a refresh token, atomically (of two concurrent uses only one wins). `presenter` is who
   * presents it: a configured client (for its own grants) or an application (for grants made through it).
   */
  async redeem(token: string, presenter: Presenter, kid: string): Promise<RedeemResult> {
    const key = digest(token);
    let result: RedeemResult = { ok: false, reason: 'unknown' };
    const nowS = this.now() / 1000;
    await this.store.update((t) => {
      // Decided afresh on each run: with a shared store `mutate` runs again after a concurrent write.
      result = { ok: false, reason: 'unknown' };
      const entry = t[key];
      if (!entry) return t;
      if (!presentedBy(entry, presenter)) {
        result = { ok: false, reason: 'wrong_client' };
        return t;
      }
      if (entry.used) {
        const { table, revoked } = spendFamily(t, entry.family);
        result = { ok: false, reason: 'reused', family: entry.family, revoked, client: entry.client };
        return table;
      }
      if (entry.exp <= nowS) {
        result = { ok: false, reason: 'expired' };
        delete t[key];
        return t;
      }
      if (entry.kid !== kid) {
        result = { ok: false, reason: 'rotated_key' };
        delete t[key];
        return t;
      }
      t[key] = { ...entry, used: true };
      result = { ok: true, entry };
      return t;
    });
    return result;
  }

  /**
   * Spends the family of `token` if it belongs to `client` (and, when `app` is given, was granted
   * through that application): its access tokens, to revoke before calling `dropFamily`, or why not.
   */
  async spendFamilyOf(
    token: string,
    client: string,
    app?: string,
  ): Promise<{ family: string; revoked: { jti: string; exp: number }[] } | 'unknown' | 'foreign'> {
    const entry = this.store.read()[digest(token)];
    if (!entry) return 'unknown';
    if (entry.client !== client || (app !== undefined && entry.app?.id !== app)) return 'foreign';
    let revoked: { jti: string; exp: number }[] = [];
    await this.store.update((t) => {
      const r = spendFamily(t, entry.family);
      revoked = r.revoked;
      return r.table;
    });
    return { family: entry.family, revoked };
  }

  /** Forgets a spent family, once its access tokens are on the revocation list. */
  async dropFamily(family: string): Promise<void> {
    if (!Object.values(this.store.read()).some((e) => e.family === family)) return;
    await this.store.update((t) => dropFamily(t, family).table);
  }

  /** Ends a family (its authorization code was replayed); the access tokens to revoke. */
  async revokeFamily(family: string): Promise<{ jti: string; exp: number }[]> {
    if (!Object.values(this.store.read()).some((e) => e.family === family)) return [];
    let revoked: { jti: string; exp: number }[] = [];
    await this.store.update((t) => {
      const r = dropFamily(t, family);
      revoked = r.revoked;
      return r.table;
    });
    return revoked;
  }

  /** Ends every refresh token of a removed client; the access tokens to revoke. */
  async revokeClient(client: string): Promise<{ jti: string; exp: number }[]> {
    let revoked: { jti: string; exp: number }[] = [];
    if (!Object.values(this.store.read()).some((e) => e.client === client)) return revoked;
    await this.store.update((t) => {
      // Derived afresh on each run: with a shared store `mutate` runs again after a concurrent write.
      revoked = [];
      const out: RefreshTable = {};
      for (const [k, e] of Object.entries(t)) {
        if (e.client === client) revoked.push(e.access);
        else out[k] = e;
      }
      return out;
    });
    return revoked;
  }

  async prune(): Promise<void> {
    const nowS = this.now() / 1000;
    if (Object.values(this.store.read()).every((e) => e.exp > nowS)) return;
    await this.store.update((t) => this.live(t));
  }

  private live(t: RefreshTable): RefreshTable {
    const nowS = this.now() / 1000;
    const out: RefreshTable = {};
    for (const [k, e] of Object.entries(t)) if (e.exp > nowS) out[k] = e;
    return out;
  }
}

/** Who presents a refresh token at the token endpoint. */
export type Presenter = { client: string } | { app: string };

function presentedBy(entry: RefreshEntry, p: Presenter): boolean {
  return 'app' in p ? entry.app?.id === p.app : entry.client === p.client && entry.app === undefined;
}

/**
 * The family's access tokens, and the table with each of the family's entries replaced by what
 * `change` makes of it (undefined: removed).
 */
function changeFamily(
  t: RefreshTable,
  family: string,
  change: (e: RefreshEntry) => RefreshEntry | undefined,
): { table: RefreshTable; revoked: { jti: string; exp: number }[] } {
  const table: RefreshTable = {};
  const revoked: { jti: string; exp: number }[] = [];
  for (const [k, e] of Object.entries(t)) {
    if (e.family !== family) {
      table[k] = e;
      continue;
    }
    revoked.push(e.access);
    const next = change(e);
    if (next) table[k] = next;
  }
  return { table, revoked };
}

/** Marks every token of a family spent (kept, so that the family is found again until dropped). */
const spendFamily = (t: RefreshTable, family: string) =>
  changeFamily(t, family, (e) => ({ ...e, used: true }));

/** Removes a family. */
const dropFamily = (t: RefreshTable, family: string) => changeFamily(t, family, () => undefined);

/** The table on the state backend (`refresh-tokens`; the file with the local backend). */
export async function openRefreshTokenStoreOn(
  state: StateBackend,
  path: string,
  now: () => number = Date.now,
): Promise<RefreshTokenStore> {
  return new RefreshTokenStore(
    await openJsonDocument(state, 'refresh-tokens', tableSchema, () => ({}), { file: path }),
    now,
  );
}

/** The table in its file (the local backend's), opened directly. */
export function openRefreshTokenStore(path: string, now: () => number = Date.now): RefreshTokenStore {
  return new RefreshTokenStore(
    openJsonStore(path, tableSchema, () => ({})),
    now,
  );
}
