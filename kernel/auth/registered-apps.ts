import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isKernelError, StartupError } from '../errors/index.ts';
import type { StateBackend } from '../store/backend/state-backend.ts';
import type { DocumentStore } from '../store/document-store.ts';
import { SharedFileStore } from '../store/shared-file-store.ts';
import type { AppMetadata } from './app-metadata.ts';

/**
 * The client_id of a registered application: `app.` and 128 random bits. A dot never appears in an
 * AUTH_CLIENTS name, so an application can never be taken for a configured client, nor the reverse.
 */
export const REGISTERED_APP_ID = /^app\.[A-Za-z0-9_-]{22}$/;

const entrySchema = z.object({
  client_name: z.string().nullable(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])),
  /** Unix milliseconds. */
  registered_at: z.number(),
  /** The source address of the registration. */
  registered_from: z.string(),
  /** Unix milliseconds of the last sign-in, token or refresh through it (registration at first). */
  last_used_at: z.number(),
});
export type RegisteredApp = z.output<typeof entrySchema> & { client_id: string };
type AppTable = Record<string, z.output<typeof entrySchema>>;
const tableSchema = z.record(z.string().regex(REGISTERED_APP_ID), entrySchema);

/** Use is written down at most this often: a refresh every few minutes must not rewrite the file each time. */
const TOUCH_EVERY_MS = 3_600_000;

export interface RegisteredAppSettings {
  max: number;
  idleMs: number;
}

export type Registration =
  | { ok: true; app: RegisteredApp; expired: RegisteredApp[] }
  | { ok: false; reason: 'full'; count: number; expired: RegisteredApp[] };

/**
 * Applications registered by RFC 7591 (secrets/oauth_apps.json). Bounded in number: when full, a
 * registration is refused, never made room for by evicting an application in use. One unused for the
 * idle period is expired: no longer found, then removed by the housekeeping (or by a registration that
 * needs its room), each removal reported to the caller for the audit. The operator command
 * `oauth_apps` lists and removes entries while the server runs: the file is read again when replaced.
 */
export class RegisteredApps {
  constructor(
    /** SharedFileStore with the local backend, a shared document otherwise; both say `problem`. */
    private readonly store: DocumentStore<AppTable> & { readonly problem?: string | null },
    private readonly settings: RegisteredAppSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live application with this client_id (an expired one is not). */
  get(clientId: string): RegisteredApp | undefined {
    if (!REGISTERED_APP_ID.test(clientId)) return undefined;
    const e = this.store.read()[clientId];
    return e && !this.idle(e) ? { client_id: clientId, ...e } : undefined;
  }

  list(): RegisteredApp[] {
    return Object.entries(this.store.read()).map(([client_id, e]) => ({ client_id, ...e }));
  }

  get size(): number {
    return Object.keys(this.store.read()).length;
  }

  /** Why the file on disk (or the store's value) is not in force (a bad hand edit), or null. */
  get problem(): string | null {
    return this.store.problem ?? null;
  }

  async register(metadata: AppMetadata, ip: string): Promise<Registration> {
    const now = this.now();
    let result!: Registration;
    await this.store.update((t) => {
      const { live, expired } = this.split(t);
      if (Object.keys(live).length >= this.settings.max) {
        result = { ok: false, reason: 'full', count: Object.keys(live).length, expired };
        return live;
      }
      const client_id = `app.${randomBytes(16).toString('base64url')}`;
      const entry = { ...metadata, registered_at: now, registered_from: ip, last_used_at: now };
      result = { ok: true, app: { client_id, ...entry }, expired };
      return { ...live, [client_id]: entry };
    });
    return result;
  }

  /** Records a use (sign-in, token, refresh); written at most once an hour per application. */
  async touch(clientId: string): Promise<void> {
    const e = this.store.read()[clientId];
    if (!e || this.now() - e.last_used_at < TOUCH_EVERY_MS) return;
    await this.store.update((t) => {
      const cur = t[clientId];
      if (cur) t[clientId] = { ...cur, last_used_at: this.now() };
      return t;
    });
  }

  /** Removes one application; what was removed, or undefined when there was none. */
  async remove(clientId: string): Promise<RegisteredApp | undefined> {
    if (!this.store.read()[clientId]) return undefined;
    let removed: RegisteredApp | undefined;
    await this.store.update((t) => {
      const e = t[clientId];
      // Decided afresh on each run: with a shared store `mutate` runs again after a concurrent write.
      removed = e ? { client_id: clientId, ...e } : undefined;
      delete t[clientId];
      return t;
    });
    return removed;
  }

  /** Removes every expired application; those removed. */
  async purgeIdle(): Promise<RegisteredApp[]> {
    if (!Object.values(this.store.read()).some((e) => this.idle(e))) return [];
    let expired: RegisteredApp[] = [];
    await this.store.update((t) => {
      const r = this.split(t);
      expired = r.expired;
      return r.live;
    });
    return expired;
  }

  /** When an application expires unless used again (Unix milliseconds). */
  expiresAt(app: Pick<RegisteredApp, 'last_used_at'>): number {
    return app.last_used_at + this.settings.idleMs;
  }

  private idle(e: { last_used_at: number }): boolean {
    return this.now() >= this.expiresAt(e);
  }

  private split(t: AppTable): { live: AppTable; expired: RegisteredApp[] } {
    const live: AppTable = {};
    const expired: RegisteredApp[] = [];
    for (const [id, e] of Object.entries(t)) {
      if (this.idle(e)) expired.push({ client_id: id, ...e });
      else live[id] = e;
    }
    return { live, expired };
  }
}

function validate(raw: unknown): AppTable {
  const r = tableSchema.safeParse(raw);
  if (!r.success)
    throw new Error(`does not have the expected shape (${r.error.issues[0]?.message ?? 'invalid'})`);
  return r.data;
}

/**
 * The applications on the state backend (`oauth-apps`): with the local backend secrets/oauth_apps.json,
 * read again when the operator command replaces it; with a shared store the document there (seeded
 * from the file), which the operator command changes through the store. A value that is not of the
 * expected shape stops startup, named.
 */
export async function openRegisteredAppsOn(
  state: StateBackend,
  path: string,
  settings: RegisteredAppSettings,
  now: () => number = Date.now,
): Promise<RegisteredApps> {
  let store: DocumentStore<AppTable>;
  try {
    store = await state.document('oauth-apps', {
      file: path,
      sharedFile: true,
      initial: () => ({}),
      validate,
    });
  } catch (err) {
    if (isKernelError(err)) throw err;
    throw new StartupError((err as Error).message, { cause: err });
  }
  return new RegisteredApps(store, settings, now);
}

/** The store of secrets/oauth_apps.json; a file that is not of the expected shape stops startup, named. */
export function openRegisteredApps(
  path: string,
  settings: RegisteredAppSettings,
  now: () => number = Date.now,
): RegisteredApps {
  let store: SharedFileStore<AppTable>;
  try {
    store = new SharedFileStore<AppTable>(path, () => ({}), validate);
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  return new RegisteredApps(store, settings, now);
}
