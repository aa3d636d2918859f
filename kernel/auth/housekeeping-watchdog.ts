import type { Watchdog } from '../watchdogs/runner.ts';
import type { AuthServices } from './services.ts';

export const AUTH_HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * Once a minute: releases expired blacklist entries (IP_RELEASED is audited even if the IP never comes
 * back) and drops expired entries from the revocation list and the refresh-token store.
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
    },
  };
}
