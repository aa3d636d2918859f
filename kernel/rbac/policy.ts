import { ProfilePermissionError } from '../errors/index.ts';
import type { AllowlistService, Module, Product, Service } from '../sdk/types.ts';
import { allowedBy, globToRegExp } from './glob.ts';
import type { CupiRule, Profile } from './profile-schema.ts';

export interface RateWindow {
  limit: number;
  windowSeconds: number;
}

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
export function assertAllowlisted(profile: Profile, service: AllowlistService, subject: string): void {
  if (!allowlisted(profile, service, subject)) {
    throw new ProfilePermissionError(
      `profile ${profile.name} does not allow ${service.toUpperCase()} ${subject}`,
    );
  }
}

export function allowlisted(profile: Profile, service: AllowlistService, subject: string): boolean {
  if (service !== 'cupi') return allowedBy(subject, profile.allowlists[service]);
  const space = subject.indexOf(' ');
  const method = subject.slice(0, space);
  const path = subject.slice(space + 1);
  const hit = (r: CupiRule): boolean =>
    r.methods.includes(method as CupiRule['methods'][number]) && globToRegExp(r.path).test(path);
  return profile.allowlists.cupi.allow.some(hit) && !profile.allowlists.cupi.deny.some(hit);
}

export function rateWindow(profile: Profile, module: Module, service: Service): RateWindow {
  const forModule = profile.rateLimits[module];
  return forModule?.[service] ?? forModule?.default ?? FALLBACK_RATE;
}
