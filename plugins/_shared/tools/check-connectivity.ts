import {
  CertificateTrustError,
  HostKeyError,
  isKernelError,
  structuredReply,
  toolsFor,
  type Product,
  type ToolContext,
} from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';
import { connectivityOutput } from './output-shapes.ts';

/** One service a connectivity check tries; it resolves with details worth showing, or throws. */
export interface ConnectivityProbe<S> {
  service: string;
  run(host: string, ctx: ToolContext<S>): Promise<Record<string, unknown>>;
}

export interface ProbeResult {
  ok: boolean;
  latency_ms: number;
  error?: string;
  reason?: string;
  [detail: string]: unknown;
}

/** `<product>_check_connectivity`: every service of a node tried in parallel, latency and reason each. */
export function checkConnectivityTool<S>(
  product: Product,
  probes: ConnectivityProbe<S>[],
  trustTool: string,
) {
  const names = probes.map((p) => p.service.toUpperCase()).join(', ');
  return toolsFor<S>()({
    name: 'check_connectivity',
    title: `Check ${PRODUCT_LABEL[product]} connectivity`,
    description: `Tries ${names} on the ${PRODUCT_LABEL[product]} node at once: per service, ok and latency_ms, or an error code and reason. Each service tried takes one call of its rate limit (spent: RATE_LIMITED, skipped).`,
    input: { host: hostField },
    output: connectivityOutput,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    access: { minProfile: 'auditor' },
    service: 'default',
    summary: () => ({ operation: `connectivity check: ${names}` }),
    async handler(input, ctx) {
      const entries = await Promise.all(
        probes.map(async (p): Promise<[string, ProbeResult]> => {
          const started = performance.now();
          const ms = (): number => Math.round((performance.now() - started) * 10) / 10;
          try {
            const detail = await p.run(input.host, ctx);
            return [p.service, { ok: true, latency_ms: ms(), ...detail }];
          } catch (err) {
            if (!(isKernelError(err) && err.expose))
              ctx.log.warn(
                { err, host: input.host, service: p.service },
                'connectivity probe failed unexpectedly',
              );
            return [p.service, { ok: false, latency_ms: ms(), ...describeFailure(err, trustTool) }];
          }
        }),
      );
      const services = Object.fromEntries(entries);
      return structuredReply({ host: input.host, ok: entries.every(([, r]) => r.ok), services });
    },
  });
}

function describeFailure(err: unknown, trustTool: string): Record<string, unknown> {
  if (err instanceof HostKeyError) {
    return {
      error: err.code,
      reason: err.message,
      host_key: err.reason,
      presented_fingerprint: err.presented,
      next_step: `${trustTool} with this fingerprint after checking it on the node`,
    };
  }
  if (err instanceof CertificateTrustError) {
    return {
      error: err.code,
      reason: err.message,
      certificate_trust: err.reason,
      presented_fingerprint: err.presented.fingerprint,
      next_step: `${err.product}_trust_certificate with this fingerprint after checking it on the node`,
    };
  }
  if (isKernelError(err) && err.expose)
    return {
      error: err.code,
      reason: err.message,
      // RATE_LIMITED: this service's window is spent; the probe sent nothing.
      ...(err.retryAfterSeconds !== undefined ? { retry_after_s: Math.ceil(err.retryAfterSeconds) } : {}),
    };
  // Not a coded error: say only that it failed; the details go to app.log through the caller.
  return { error: 'INTERNAL_ERROR', reason: 'unexpected failure; see the server log' };
}
