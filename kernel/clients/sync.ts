import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hashClientSecret, newClientSecret } from '../auth/client-secret.ts';
import type { AuthServices } from '../auth/services.ts';
import type { AppLogger } from '../logging/app-log.ts';
import { fsyncDir, writeFileAtomic } from '../store/atomic-file.ts';
import { CLIENT_NAME, parseAuthClients, type ClientSpec } from './auth-clients.ts';
import { clientPaths } from './client-paths.ts';
import { readClientSettings, writeSettingsTemplate } from './client-settings.ts';
import { readRegistration, writeRegistration } from './registration.ts';
import { ClientRegistry, type RegisteredClient } from './registry.ts';

export interface ClientSyncResult {
  registry: ClientRegistry;
  created: string[];
  kept: string[];
  purged: string[];
}

/** Profile names available to clients: the JSON files in the live profiles folder. */
export function profileNames(profilesDir: string): Set<string> {
  if (!existsSync(profilesDir)) return new Set();
  return new Set(
    readdirSync(profilesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length)),
  );
}

/**
 * Startup step 7: brings clients/ in line with AUTH_CLIENTS. A new client gets its directory and a
 * random OAuth secret (plaintext in secrets/.client_secret for the operator, bcrypt hash kept); a
 * listed one keeps its secret; a directory no longer listed is purged after all its tokens are revoked.
 * Startup tokens are written later (writeStartupTokens), once the issuer URL is known.
 */
export async function syncClients(deps: {
  authClients: string;
  clientsDir: string;
  profilesDir: string;
  auth: AuthServices;
  log: AppLogger;
}): Promise<ClientSyncResult> {
  const { clientsDir, auth, log } = deps;
  const specs = parseAuthClients(deps.authClients, profileNames(deps.profilesDir));
  mkdirSync(clientsDir, { recursive: true, mode: 0o700 });
  // Directories whose removal a crash interrupted: their client is already gone (see purgeClient).
  for (const entry of readdirSync(clientsDir)) {
    if (entry.startsWith(REMOVING)) rmSync(join(clientsDir, entry), { recursive: true, force: true });
  }

  const created: string[] = [];
  const kept: string[] = [];
  const clients: RegisteredClient[] = [];
  for (const spec of specs) {
    const { client, isNew } = await ensureClient(spec, clientsDir, auth.settings.bcryptCost, log);
    clients.push(client);
    (isNew ? created : kept).push(spec.name);
  }

  const listed = new Set(specs.map((s) => s.name));
  const purged: string[] = [];
  for (const entry of readdirSync(clientsDir).sort()) {
    if (listed.has(entry) || !CLIENT_NAME.test(entry)) continue;
    if (!statSync(join(clientsDir, entry)).isDirectory()) continue;
    await purgeClient(entry, clientsDir, auth, log);
    purged.push(entry);
  }
  return { registry: new ClientRegistry(clients), created, kept, purged };
}

async function ensureClient(
  spec: ClientSpec,
  clientsDir: string,
  bcryptCost: number,
  log: AppLogger,
): Promise<{ client: RegisteredClient; isNew: boolean }> {
  const p = clientPaths(clientsDir, spec.name);
  mkdirSync(p.secrets, { recursive: true, mode: 0o700 });
  chmodSync(p.dir, 0o700);
  chmodSync(p.secrets, 0o700);
  writeSettingsTemplate(p.settings);
  const settings = readClientSettings(spec.name, p.settings);

  let registration = readRegistration(p.registration);
  const isNew = registration === null;
  if (registration === null) {
    const secret = newClientSecret();
    writeFileAtomic(p.clientSecret, `${secret}\n`, 0o600);
    registration = {
      client_secret_hash: await hashClientSecret(secret, bcryptCost),
      created_at: new Date().toISOString(),
    };
    writeRegistration(p.registration, registration);
    log.info(
      { client: spec.name, file: p.clientSecret },
      'new OAuth client secret written; give it to the client, then delete the file (only its hash is kept)',
    );
  }
  return {
    isNew,
    client: {
      name: spec.name,
      profile: spec.profile,
      products: spec.products,
      redirectUris: [...new Set([...spec.redirectUris, ...settings.redirectUris])],
      narrowing: settings.narrowing,
      secretHash: registration.client_secret_hash,
      createdAt: registration.created_at,
    },
  };
}

/** A client directory being removed is first renamed to `.removing.<name>.<random>`. */
const REMOVING = '.removing.';

/**
 * Revokes every token the client holds (access tokens and refresh families), then removes its directory.
 * The directory is renamed aside in one step before it is deleted file by file, so a crash leaves the
 * client either whole (and the next start purges it again, or keeps it if it is configured again) or
 * gone: never half a client, such as vault files without the registration, that a client re-created
 * under the same name would inherit.
 */
async function purgeClient(
  name: string,
  clientsDir: string,
  auth: AuthServices,
  log: AppLogger,
): Promise<void> {
  const p = clientPaths(clientsDir, name);
  const fromRefresh = await auth.refreshTokens.revokeClient(name);
  const fromLedger = await auth.ledger.tokens(name);
  const startup = readRegistrationQuietly(p.registration);
  const all = [...fromLedger, ...fromRefresh, ...(startup ? [startup] : [])];
  await auth.revocations.revoke(all);
  const jtis = [...new Set(all.map((t) => t.jti))];
  auth.events.revoked({ client: name, reason: 'client_removed', jtis });
  await auth.ledger.forget(name);
  const removing = join(clientsDir, `${REMOVING}${name}.${randomBytes(4).toString('hex')}`);
  renameSync(p.dir, removing);
  fsyncDir(clientsDir);
  rmSync(removing, { recursive: true, force: true });
  log.info(
    { client: name, revoked: jtis.length },
    'client no longer in AUTH_CLIENTS: tokens revoked, directory removed',
  );
}

/** A purge must not stop on a damaged registration file: its tokens are in the ledger anyway. */
function readRegistrationQuietly(path: string): { jti: string; exp: number } | undefined {
  try {
    return readRegistration(path)?.startup_token;
  } catch {
    return undefined;
  }
}
