import { z } from 'zod';
import type { StateBackend } from '../store/backend/state-backend.ts';
import type { DocumentStore } from '../store/document-store.ts';
import { openJsonDocument, openJsonStore } from './json-store.ts';

/** jti -> expiry (Unix seconds) of every revoked, not yet expired JWT. */
export type RevokedJtis = Record<string, number>;

const schema = z.record(z.string(), z.number());

/**
 * The persisted revocation list (secrets/token_blacklist.json). An entry is kept until the token it
 * names would have expired anyway; after that the signature check alone refuses the token.
 */
export class RevocationList {
  constructor(
    private readonly store: DocumentStore<RevokedJtis>,
    private readonly now: () => number = Date.now,
  ) {}

  isRevoked(jti: string): boolean {
    return Object.hasOwn(this.store.read(), jti);
  }

  get size(): number {
    return Object.keys(this.store.read()).length;
  }

  /** Adds the given tokens (already-expired ones are pointless and skipped) and prunes the list. */
  async revoke(entries: { jti: string; exp: number }[]): Promise<void> {
    const nowS = this.now() / 1000;
    await this.store.update((list) => {
      for (const { jti, exp } of entries) if (exp > nowS) list[jti] = exp;
      return pruned(list, nowS);
    });
  }

  /** Drops expired entries; resolves to how many were dropped. */
  async prune(): Promise<number> {
    const nowS = this.now() / 1000;
    const before = this.size;
    if (Object.values(this.store.read()).every((exp) => exp > nowS)) return 0;
    const after = await this.store.update((list) => pruned(list, nowS));
    return before - Object.keys(after).length;
  }
}

function pruned(list: RevokedJtis, nowS: number): RevokedJtis {
  const out: RevokedJtis = {};
  for (const [jti, exp] of Object.entries(list)) if (exp > nowS) out[jti] = exp;
  return out;
}

/** The list on the state backend (`revocations`; the file with the local backend, and the seed of an empty store). */
export async function openRevocationListOn(
  state: StateBackend,
  path: string,
  now: () => number = Date.now,
): Promise<RevocationList> {
  return new RevocationList(
    await openJsonDocument(state, 'revocations', schema, () => ({}), { file: path }),
    now,
  );
}

/** The list in its file (the local backend's), opened directly. */
export function openRevocationList(path: string, now: () => number = Date.now): RevocationList {
  return new RevocationList(
    openJsonStore(path, schema, () => ({})),
    now,
  );
}
