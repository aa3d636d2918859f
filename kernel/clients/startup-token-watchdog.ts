import { AUTH_HOUSEKEEPING_INTERVAL_MS } from '../auth/housekeeping-watchdog.ts';
import type { AuthServices } from '../auth/services.ts';
import type { Watchdog } from '../watchdogs/runner.ts';
import type { ClientRegistry } from './registry.ts';
import { renewStartupTokens } from './startup-tokens.ts';

/**
 * Once a minute while the server runs: writes a new .token for every client whose token is near expiry
 * or was revoked (by /revoke or the revoke_startup_token command), so a server that is never restarted
 * never leaves a client with a dead token.
 */
export function startupTokenWatchdog(
  registry: ClientRegistry,
  clientsDir: string,
  auth: AuthServices,
  now: () => number,
): Watchdog {
  return {
    name: 'startup-token-renewal',
    intervalMs: AUTH_HOUSEKEEPING_INTERVAL_MS,
    runOnStart: false,
    async run() {
      await renewStartupTokens(registry, clientsDir, auth, now);
    },
  };
}
