import type { AuditLog } from '../../audit/audit-log.ts';
import { TransportRejectedError } from '../../errors/index.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { KernelMiddleware } from '../state.ts';
import { loggablePath } from '../loggable-path.ts';

export interface TransportPolicy {
  /** Host names (no port) a request may address. */
  hosts: Set<string>;
  /** Exact origins (scheme://host[:port]) a browser request may come from. */
  origins: Set<string>;
  /** Paths served whatever the Host (load-balancer probes). */
  exempt: Set<string>;
}

/**
 * DNS-rebinding guard (spec, Authentication 11): the Host header must name this server and an Origin,
 * when a browser sends one, must be one of ours. Refusals are TRANSPORT audit events with the offending
 * value and the source address.
 */
export function transportGuard(policy: TransportPolicy, audit: AuditLog, metrics: Metrics): KernelMiddleware {
  return async (ctx, next) => {
    if (policy.exempt.has(ctx.path)) return next();
    const host = ctx.get('host');
    if (!policy.hosts.has(hostnameOf(host))) {
      metrics.transportRejections.inc({ reason: 'invalid_host' });
      audit.write({
        event: 'TRANSPORT',
        status: 'INVALID_HOST',
        ip: ctx.state.ip,
        host_header: host,
        path: loggablePath(ctx.path),
      });
      throw new TransportRejectedError('the Host header does not name this server');
    }
    const origin = ctx.get('origin');
    if (origin && !policy.origins.has(origin.toLowerCase())) {
      metrics.transportRejections.inc({ reason: 'invalid_origin' });
      audit.write({
        event: 'TRANSPORT',
        status: 'INVALID_ORIGIN',
        ip: ctx.state.ip,
        origin,
        path: loggablePath(ctx.path),
      });
      throw new TransportRejectedError('the Origin header is not allowed');
    }
    return next();
  };
}

/** The host name of a Host header value, lower-case, without port or IPv6 brackets; '' if malformed. */
export function hostnameOf(hostHeader: string): string {
  if (!hostHeader || /[\s/@?#\\]/.test(hostHeader)) return '';
  try {
    return new URL(`https://${hostHeader}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
}

/** The policy for a server listening at `port` and published as `publicBaseUrl`. */
export function buildTransportPolicy(opts: {
  listenHost: string;
  port: number;
  publicBaseUrl: string;
  extraHosts: string[];
  extraOrigins: string[];
}): TransportPolicy {
  const hosts = new Set<string>(['localhost', '127.0.0.1', '::1']);
  if (!['0.0.0.0', '::'].includes(opts.listenHost)) hosts.add(opts.listenHost.toLowerCase());
  const publicUrl = new URL(opts.publicBaseUrl);
  hosts.add(publicUrl.hostname.replace(/^\[|\]$/g, '').toLowerCase());
  for (const h of opts.extraHosts) hosts.add(h.toLowerCase());
  const origins = new Set<string>([publicUrl.origin.toLowerCase()]);
  for (const h of hosts) {
    const literal = h.includes(':') ? `[${h}]` : h;
    origins.add(`https://${literal}:${opts.port}`);
    if (opts.port === 443) origins.add(`https://${literal}`);
  }
  for (const o of opts.extraOrigins) origins.add(o.toLowerCase().replace(/\/$/, ''));
  return { hosts, origins, exempt: new Set(['/health']) };
}
