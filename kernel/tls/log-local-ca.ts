import type { AppLogger } from '../logging/app-log.ts';
import type { StatePaths } from '../paths.ts';
import type { TlsMaterial } from './certificate.ts';

/**
 * Says when the local CA changed: users trust its certificate, so a new one is news they must act on
 * (a first one at `info`, a replacement at `warn`). A kept CA is not worth a line.
 */
export function logLocalCa(log: AppLogger, paths: StatePaths, tls: TlsMaterial): void {
  const ca = tls.localCa;
  if (!ca || ca.event === 'kept') return;
  const detail = {
    caCert: paths.caCert,
    fingerprint256: ca.fingerprint256,
    notAfter: ca.notAfter.toISOString(),
  };
  if (ca.event === 'created') {
    log.info(detail, `local CA created: clients trust ${paths.caCert} (docs/tls-trust.md)`);
  } else {
    log.warn(
      { ...detail, reason: ca.reason },
      `local CA replaced (${ca.reason ?? 'unusable'}): clients must trust the new ${paths.caCert} (docs/tls-trust.md)`,
    );
  }
}
