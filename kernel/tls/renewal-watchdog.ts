import type { KernelRuntime } from '../runtime.ts';
import type { Watchdog } from '../watchdogs/runner.ts';
import { certificateNames, issueServerCertificate, needsRenewal, type TlsMaterial } from './certificate.ts';
import { logLocalCa } from './log-local-ca.ts';

/**
 * Renews the managed certificate once it is past half its life, without a restart, from the same
 * local CA (users trust that once); warns about an operator-supplied certificate that expires within
 * 30 days (that one is never replaced).
 */
export function tlsRenewalWatchdog(rt: KernelRuntime, apply: (m: TlsMaterial) => void): Watchdog {
  return {
    name: 'tls',
    intervalMs: rt.config.TLS_CHECK_HOURS * 3_600_000,
    runOnStart: false,
    async run() {
      const names = certificateNames(rt.config);
      if (rt.tls.managed) {
        if (!needsRenewal(rt.tls, names)) return;
        const renewed = issueServerCertificate(rt.config, rt.paths, names, 'renewed');
        apply(renewed);
        rt.tls = renewed;
        rt.log.info(
          { notAfter: renewed.notAfter.toISOString(), fingerprint256: renewed.fingerprint256 },
          'TLS certificate renewed',
        );
        logLocalCa(rt.log, rt.paths, renewed);
      } else if (rt.tls.notAfter.getTime() - Date.now() < 30 * 86_400_000) {
        rt.log.warn(
          { notAfter: rt.tls.notAfter.toISOString() },
          'configured TLS certificate expires within 30 days',
        );
      }
    },
  };
}
