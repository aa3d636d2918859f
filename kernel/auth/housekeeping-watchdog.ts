import type { Watchdog } from '../watchdogs/runner.ts';
import type { AuthServices } from './services.ts';

export const AUTH_HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * Once a minute: releases expired blacklist entries (IP_RELEASED is audited even if the IP never comes
 * back), drops expired entries from the revocation list and the refresh-token store, and removes
 * registered applications unused for OAUTH_REGISTRATION_IDLE_DAYS (APP_EXPIRED each).
 */
export function authHousekeepingWatchdog(auth: AuthServices): Watchdog {
  return {
    name: 'auth-housekeeping',
    intervalMs: AUTH_HOUSEKEEPING_INTERVAL_MS,
    runOnStart: false,
    async run() {
      await auth.blacklist.sweep();
      await auth.revocations.prune();
      await auth.refreshTokens.prune();
      for (const app of await auth.apps.purgeIdle())
        auth.events.app('APP_EXPIRED', {
          azp: app.client_id,
          client_app: app.client_name,
          last_used_at: new Date(app.last_used_at).toISOString(),
        });
    },
  };
}
