import {
  HostKeyError,
  isKernelError,
  structuredReply,
  toolsFor,
  type Product,
  type ToolContext,
} from '../../../kernel/sdk/index.ts';
import { hostField } from './credential-input.ts';
import { PRODUCT_LABEL } from './product-labels.ts';

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
    description: `Tries ${names} on a ${PRODUCT_LABEL[product]} node with your stored credentials, all at once, and returns per service whether it works, its latency in milliseconds and, when it fails, the error code and a clear reason (no credentials, unreachable, TLS, authentication, host key awaiting ${trustTool}). Each service tried counts as one call against your rate limit for that service; a service whose limit is spent is not tried and reports error RATE_LIMITED with retry_after_s, the other services are still checked.`,
    input: { host: hostField },
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
