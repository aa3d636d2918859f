import type { AuthServices } from '../auth/services.ts';
import { SCOPE } from '../auth/urls.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { clientPaths } from './client-paths.ts';
import { readRegistration, writeRegistration } from './registration.ts';
import type { ClientRegistry } from './registry.ts';

/**
 * Writes a fresh JWT to clients/<name>/secrets/.token for every client (spec, Authentication 4) and
 * revokes the one it replaces, so each client has at most one live startup token. Runs once the
 * issuer URL is known, before the server answers its first request.
 *
 * The order makes a crash at any step safe: the previous token is revoked first; the new one is recorded
 * in registration.json before it is written to .token, so a token that ever reached .token is always the
 * one the registration names, and the next start revokes it.
 */
export async function writeStartupTokens(
  registry: ClientRegistry,
  clientsDir: string,
  auth: AuthServices,
): Promise<number> {
  for (const client of registry.list()) {
    const p = clientPaths(clientsDir, client.name);
    const registration = readRegistration(p.registration);
    if (!registration) throw new Error(`client ${client.name} has no registration; step 7 did not run`);
    const previous = registration.startup_token;
    if (previous) {
      await auth.revocations.revoke([previous]);
      auth.events.revoked({ client: client.name, reason: 'startup_token_replaced', jtis: [previous.jti] });
    }
    const { token, jti, exp } = await auth.tokens.issue(
      client.name,
      SCOPE,
      auth.settings.startupTokenTtlSeconds,
    );
    writeRegistration(p.registration, { ...registration, startup_token: { jti, exp } });
    writeFileAtomic(p.token, token, 0o600);
    auth.events.issued({ client: client.name, grant_type: 'startup', jti, exp, scope: SCOPE });
  }
  return registry.size;
}
