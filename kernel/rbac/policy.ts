import { ProfilePermissionError } from '../errors/index.ts';
import type { AllowlistService, PluginModule, Product, Service } from '../sdk/types.ts';
import { allowedBy, globToRegExp, matchesAny } from './glob.ts';
import type { CupiRule, Profile } from './profile-schema.ts';

export interface RateWindow {
  limit: number;
  windowSeconds: number;
}

type CupiPattern = { methods: string[]; path: string };

/**
 * A client's own restrictions on top of its profile (clients/<name>/client.json). Narrowing never
 * widens: a subject must pass the profile and the client's allow list, either deny list refuses it, and
 * the lower of the two rates applies.
 */
export interface Narrowing {
  allowlists: Partial<
    Record<AllowlistService, { allow?: (string | CupiPattern)[]; deny?: (string | CupiPattern)[] }>
  >;
  rateLimits: Partial<Record<string, Partial<Record<string, RateWindow>>>>;
  /**
   * The toolsets this client is limited to (kernel/mcp/toolsets.ts names), on every connection; absent:
   * all. A connection may narrow further (query parameter, header), never widen.
   */
  toolsets?: string[];
  /** Only tools annotated read-only, on every connection. */
  readOnly?: boolean;
}

export const NO_NARROWING: Narrowing = { allowlists: {}, rateLimits: {} };

/** Used when a profile names no limit for a module and service: generous, but never unlimited. */
export const FALLBACK_RATE: RateWindow = { limit: 300, windowSeconds: 60 };

/** The products a caller may reach: its own scope, narrowed by its profile's. */
export function effectiveProducts(clientProducts: readonly Product[], profile: Profile): Product[] {
  return clientProducts.filter((p) => profile.products.includes(p));
}

export function toolPermitted(profile: Profile, toolName: string): boolean {
  return allowedBy(toolName, profile.tools);
}

/** Throws ProfilePermissionError unless the subject (operation, command, "METHOD /path") is allowlisted. */
export function assertAllowlisted(
  profile: Profile,
  service: AllowlistService,
  subject: string,
  narrowing: Narrowing = NO_NARROWING,
): void {
  if (!allowlisted(profile, service, subject, narrowing)) {
    throw new ProfilePermissionError(
      `profile ${profile.name} does not allow ${service.toUpperCase()} ${subject}`,
    );
  }
}

const strings = (xs: (string | CupiPattern)[] | undefined): string[] =>
  (xs ?? []).filter((x): x is string => typeof x === 'string');

export function allowlisted(
  profile: Profile,
  service: AllowlistService,
  subject: string,
  narrowing: Narrowing = NO_NARROWING,
): boolean {
  const n = narrowing.allowlists[service];
  if (service !== 'cupi') {
    if (!allowedBy(subject, profile.allowlists[service])) return false;
    if (!n) return true;
    if (n.allow !== undefined && !matchesAny(subject, strings(n.allow))) return false;
    return !matchesAny(subject, strings(n.deny));
  }
  const space = subject.indexOf(' ');
  const method = subject.slice(0, space);
  const path = subject.slice(space + 1);
  const hit = (r: CupiRule | CupiPattern | string): boolean =>
    typeof r === 'string'
      ? globToRegExp(r).test(path)
      : r.methods.includes(method as CupiRule['methods'][number]) && globToRegExp(r.path).test(path);
  if (!profile.allowlists.cupi.allow.some(hit) || profile.allowlists.cupi.deny.some(hit)) return false;
  if (!n) return true;
  if (n.allow !== undefined && !n.allow.some(hit)) return false;
  return !(n.deny ?? []).some(hit);
}

export function rateWindow(
  profile: Profile,
  module: PluginModule,
  service: Service,
  narrowing: Narrowing = NO_NARROWING,
): RateWindow {
  const forModule = profile.rateLimits[module];
  const fromProfile = forModule?.[service] ?? forModule?.default ?? FALLBACK_RATE;
  const fromClient = narrowing.rateLimits[module]?.[service];
  if (!fromClient) return fromProfile;
  const lower = fromClient.limit / fromClient.windowSeconds < fromProfile.limit / fromProfile.windowSeconds;
  return lower ? fromClient : fromProfile;
}
