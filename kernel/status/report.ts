import { PACKAGE_VERSION } from '../paths.ts';
import type { KernelRuntime } from '../runtime.ts';
import { backupStatus } from '../backup/status.ts';
import { integritySummary } from '../integrity/verdict.ts';
import type { StatusOptions } from '../sdk/kernel-services.ts';

/** The GET /status body: every field its real current value (functional spec, HTTP endpoints). */
export function statusReport(rt: KernelRuntime): Record<string, unknown> {
  return {
    server: {
      name: rt.config.SERVER_NAME,
      version: PACKAGE_VERSION,
      uptime_seconds: Math.floor((Date.now() - rt.startedAt.getTime()) / 1000),
      started_at: rt.startedAt.toISOString(),
    },
    license: {
      state: rt.license.state,
      tier: rt.license.tier,
      expires_at: rt.license.expiresAt,
      products: rt.license.products,
      reason: rt.license.reason,
    },
    backup: backupStatus(rt),
    // The last check's verdict as soon as it is known (startup, watchdog, on demand): a failed check
    // must show here at once, not at the next scheduled run.
    integrity: integritySummary(rt.integrity.last(), rt.config.INTEGRITY_MODE),
    security: { blacklisted_ips: rt.auth.blacklist.activeCount() },
    modules: rt.modules,
    clients: { active: rt.clients.size },
  };
}

/** Sums a counter's values by one label. */
async function sumBy(
  counter: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> },
  label?: string,
) {
  const out: Record<string, number> = {};
  let total = 0;
  for (const v of (await counter.get()).values) {
    total += v.value;
    if (label) {
      const key = String(v.labels[label] ?? 'unknown');
      out[key] = (out[key] ?? 0) + v.value;
    }
  }
  return { total, ...(label ? { by: out } : {}) };
}

/**
 * infra_server_status: the /status report plus per-category request counters and the security posture
 * (TLS, OAuth, integrity), all read from the live runtime and metrics.
 */
export async function fullStatusReport(
  rt: KernelRuntime,
  opts: StatusOptions = {},
): Promise<Record<string, unknown>> {
  // With a check requested, everything below is built from that check's report, never from a later or
  // earlier one: the caller sees one verdict.
  const checked = opts.checkIntegrity ? await rt.integrity.check() : undefined;
  const report = checked ?? rt.integrity.last();
  const summary = integritySummary(report, rt.config.INTEGRITY_MODE);
  const base: Record<string, unknown> = { ...statusReport(rt), integrity: summary };
  const m = rt.metrics;
  const urls = rt.auth.urls();
  return {
    ...base,
    requests: {
      tool_calls: await sumBy(m.toolCalls, 'status'),
      http: await sumBy(m.httpRequests, 'status'),
      auth_failures: await sumBy(m.authFailures),
      rate_limited: await sumBy(m.rateLimited, 'service'),
      transport_rejections: await sumBy(m.transportRejections, 'reason'),
    },
    security: {
      ...(base.security as Record<string, unknown>),
      tls: {
        min_version: 'TLSv1.2',
        max_version: 'TLSv1.3',
        certificate: {
          source: rt.tls.source,
          issued_by: rt.tls.managed ? 'local_ca' : 'operator',
          not_before: rt.tls.notBefore.toISOString(),
          not_after: rt.tls.notAfter.toISOString(),
          fingerprint256: rt.tls.fingerprint256,
        },
        // What clients trust (secrets/ca_cert.pem): its fingerprint lets a user check the file they got.
        ...(rt.tls.localCa
          ? {
              local_ca: {
                fingerprint256: rt.tls.localCa.fingerprint256,
                not_after: rt.tls.localCa.notAfter.toISOString(),
              },
            }
          : {}),
      },
      oauth: {
        issuer: urls.issuer,
        resource: urls.resource,
        grant_types: ['authorization_code', 'client_credentials', 'refresh_token'],
        pkce: 'S256',
        access_token_ttl_seconds: rt.config.AUTH_ACCESS_TOKEN_TTL_SECONDS,
      },
      integrity: summary,
    },
    // The whole report of the check just run (every finding with both hashes), with the same verdict.
    ...(checked ? { integrity: { ...checked, verdict: summary.verdict, mode: summary.mode } } : {}),
  };
}
