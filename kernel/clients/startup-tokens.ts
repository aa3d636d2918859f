import { readFileSync } from 'node:fs';
import { TokenRejected } from '../auth/access-tokens.ts';
import type { AuthServices } from '../auth/services.ts';
import { SCOPE } from '../auth/urls.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { clientPaths, type ClientPaths } from './client-paths.ts';
import { readRegistration, writeRegistration, type Registration } from './registration.ts';
import type { ClientRegistry } from './registry.ts';

/**
 * A startup token is replaced once it is this close to expiry: a quarter of its lifetime (7.5 days of
 * the default 30), so a client that re-reads .token now and then never holds an expired one.
 */
export function renewalMarginSeconds(ttlSeconds: number): number {
  return Math.floor(ttlSeconds / 4);
}

/**
 * At every start, gives each client a usable token in clients/<name>/secrets/.token (spec,
 * Authentication 4). The token already there is kept while it is the one registration.json names, is
 * not revoked, verifies with the current key (a rotated key makes it fail) and is further than the
 * renewal margin from expiry: clients configured with it keep working across restarts. Otherwise a
 * new one replaces it. Runs once the issuer URL is known, before the server answers its first request.
 *
 * The replacement order makes a crash at any step safe: the previous token is revoked first; the new
 * one is recorded in registration.json before it is written to .token, so a token that ever reached
 * .token is always the one the registration names (or was revoked), and a later start revokes it.
 */
export async function writeStartupTokens(
  registry: ClientRegistry,
  clientsDir: string,
  auth: AuthServices,
  now: () => number = Date.now,
): Promise<number> {
  for (const client of registry.list()) {
    const p = clientPaths(clientsDir, client.name);
    const registration = readRegistration(p.registration);
    if (!registration) throw new Error(`client ${client.name} has no registration; step 7 did not run`);
    const stale = [registration.startup_token, registration.replaced_startup_token].filter(
      (t) => t !== undefined,
    );
    // A renewal cut short by a crash leaves the replaced token named here: it is revoked either way.
    if (registration.replaced_startup_token) {
      await revoke(auth, client.name, [registration.replaced_startup_token], 'startup_token_replaced');
      delete registration.replaced_startup_token;
      writeRegistration(p.registration, registration);
    }
    if (await stillGood(auth, p, client.name, registration, now)) continue;
    if (stale.length > 0) await revoke(auth, client.name, stale, 'startup_token_replaced');
    const { token, jti, exp } = await issue(auth, client.name);
    writeRegistration(p.registration, { ...registration, startup_token: { jti, exp } });
    writeFileAtomic(p.token, token, 0o600);
  }
  return registry.size;
}

/**
 * While the server runs (housekeeping): replaces each .token that is near expiry, revoked (an operator
 * revoked it, e.g. through /revoke) or unreadable. The new token is written before the replaced one is
 * revoked: a client that read the file just before the switch keeps working until it re-reads it,
 * instead of failing in between. The replaced token is named in registration.json until it is revoked,
 * so a crash in between leaves it for the next start to revoke.
 */
export async function renewStartupTokens(
  registry: ClientRegistry,
  clientsDir: string,
  auth: AuthServices,
  now: () => number = Date.now,
): Promise<number> {
  let renewed = 0;
  for (const client of registry.list()) {
    const p = clientPaths(clientsDir, client.name);
    const registration = readRegistration(p.registration);
    if (!registration || (await stillGood(auth, p, client.name, registration, now))) continue;
    const replaced = registration.startup_token;
    const { token, jti, exp } = await issue(auth, client.name);
    const next: Registration = { ...registration, startup_token: { jti, exp } };
    if (replaced) next.replaced_startup_token = replaced;
    writeRegistration(p.registration, next);
    writeFileAtomic(p.token, token, 0o600);
    if (replaced) await revoke(auth, client.name, [replaced], 'startup_token_renewed');
    delete next.replaced_startup_token;
    writeRegistration(p.registration, next);
    renewed++;
  }
  return renewed;
}

/** Whether .token holds the token the registration names, still accepted and not yet due for renewal. */
async function stillGood(
  auth: AuthServices,
  p: ClientPaths,
  client: string,
  registration: Registration,
  now: () => number,
): Promise<boolean> {
  const named = registration.startup_token;
  if (!named || auth.revocations.isRevoked(named.jti)) return false;
  const margin = renewalMarginSeconds(auth.settings.startupTokenTtlSeconds);
  if (named.exp - now() / 1000 <= margin) return false;
  let token: string;
  try {
    token = readFileSync(p.token, 'utf8').trim();
  } catch {
    return false;
  }
  try {
    const claims = await auth.tokens.verify(token);
    return claims.jti === named.jti && claims.sub === client;
  } catch (err) {
    if (err instanceof TokenRejected) return false;
    throw err;
  }
}

async function issue(
  auth: AuthServices,
  client: string,
): Promise<{ token: string; jti: string; exp: number }> {
  const issued = await auth.tokens.issue(client, SCOPE, auth.settings.startupTokenTtlSeconds);
  auth.events.issued({ client, grant_type: 'startup', jti: issued.jti, exp: issued.exp, scope: SCOPE });
  return issued;
}

async function revoke(
  auth: AuthServices,
  client: string,
  tokens: { jti: string; exp: number }[],
  reason: string,
): Promise<void> {
  await auth.revocations.revoke(tokens);
  auth.events.revoked({ client, reason, jtis: tokens.map((t) => t.jti) });
}
