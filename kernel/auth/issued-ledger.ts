import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { DocumentStore } from '../store/document-store.ts';
import { openJsonStore } from './json-store.ts';

type Ledger = Record<string, number>;
const schema = z.record(z.string(), z.number());

/**
 * Which tokens each client holds (jti -> expiry, Unix seconds), so that purging a client can revoke
 * every one of them: a client re-created under the same name must not inherit its predecessor's tokens.
 */
export class IssuedTokenLedger {
  private readonly stores = new Map<string, DocumentStore<Ledger>>();

  constructor(
    private readonly pathOf: (client: string) => string,
    private readonly now: () => number = Date.now,
  ) {}

  async record(client: string, jti: string, exp: number): Promise<void> {
    const nowS = this.now() / 1000;
    await this.store(client).update((l) => {
      const live: Ledger = {};
      for (const [j, e] of Object.entries(l)) if (e > nowS) live[j] = e;
      live[jti] = exp;
      return live;
    });
  }

  /** The client's unexpired tokens. */
  tokens(client: string): { jti: string; exp: number }[] {
    if (!this.stores.has(client) && !existsSync(this.pathOf(client))) return [];
    const nowS = this.now() / 1000;
    return Object.entries(this.store(client).read())
      .filter(([, exp]) => exp > nowS)
      .map(([jti, exp]) => ({ jti, exp }));
  }

  /** Drops the cached store of a purged client (its file went with its directory). */
  forget(client: string): void {
    this.stores.delete(client);
  }

  private store(client: string): DocumentStore<Ledger> {
    let s = this.stores.get(client);
    if (!s) {
      s = openJsonStore(this.pathOf(client), schema, () => ({}));
      this.stores.set(client, s);
    }
    return s;
  }
}
