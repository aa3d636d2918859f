import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { StateBackend } from '../store/backend/state-backend.ts';
import type { DocumentStore } from '../store/document-store.ts';
import { openJsonDocument, openJsonStore } from './json-store.ts';

type Ledger = Record<string, number>;
const schema = z.record(z.string(), z.number());

/** Opens the ledger document of one client (`file`: where the local backend keeps it). */
export type LedgerOpener = (client: string, file: string) => Promise<DocumentStore<Ledger>>;

/**
 * Which tokens each client holds (jti -> expiry, Unix seconds), so that purging a client can revoke
 * every one of them: a client re-created under the same name must not inherit its predecessor's tokens.
 * Each client's ledger is opened on first use: its file by default, or through `open` (the state
 * backend: the document `issued-tokens:<client>` of a shared store, updated atomically by every instance).
 */
export class IssuedTokenLedger {
  private readonly stores = new Map<string, Promise<DocumentStore<Ledger>>>();

  constructor(
    private readonly pathOf: (client: string) => string,
    private readonly now: () => number = Date.now,
    private readonly open: LedgerOpener = (_client, file) =>
      Promise.resolve(openJsonStore(file, schema, () => ({}))),
    /** With a shared store the ledger outlives the client's directory: `forget` empties it. */
    private readonly shared = false,
  ) {}

  async record(client: string, jti: string, exp: number): Promise<void> {
    const nowS = this.now() / 1000;
    await (
      await this.store(client)
    ).update((l) => {
      const live: Ledger = {};
      for (const [j, e] of Object.entries(l)) if (e > nowS) live[j] = e;
      live[jti] = exp;
      return live;
    });
  }

  /** The client's unexpired tokens. */
  async tokens(client: string): Promise<{ jti: string; exp: number }[]> {
    if (!this.shared && !this.stores.has(client) && !existsSync(this.pathOf(client))) return [];
    const nowS = this.now() / 1000;
    const store = await this.store(client);
    // From the store itself, not the mirror: a token another instance recorded a moment ago counts
    // (an update that changes nothing reads the store's copy and writes nothing).
    const ledger = this.shared ? await store.update((l) => l) : store.read();
    return Object.entries(ledger)
      .filter(([, exp]) => exp > nowS)
      .map(([jti, exp]) => ({ jti, exp }));
  }

  /**
   * Forgets a purged client: drops its cached store (its file went with its directory) and, with a
   * shared store, empties its document there, so that a client re-created under the name starts clean.
   */
  async forget(client: string): Promise<void> {
    const store = this.stores.get(client);
    this.stores.delete(client);
    if (this.shared) await (await (store ?? this.open(client, this.pathOf(client)))).update(() => ({}));
  }

  private store(client: string): Promise<DocumentStore<Ledger>> {
    let s = this.stores.get(client);
    if (!s) {
      s = this.open(client, this.pathOf(client));
      this.stores.set(client, s);
      // A failed open (the store unreachable) is tried again at the next use.
      s.catch(() => this.stores.delete(client));
    }
    return s;
  }
}

/** The ledger on the state backend: each client's file with the local backend, documents with a shared one. */
export function issuedLedgerOn(
  state: StateBackend,
  pathOf: (client: string) => string,
  now: () => number = Date.now,
): IssuedTokenLedger {
  return new IssuedTokenLedger(
    pathOf,
    now,
    (client, file) => openJsonDocument(state, `issued-tokens:${client}`, schema, () => ({}), { file }),
    state.kind !== 'local',
  );
}
