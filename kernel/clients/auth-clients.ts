import { ConfigError } from '../errors/index.ts';
import { redirectUriProblem, shownUri } from './redirect-uri.ts';

/** Managed products a client may be scoped to. */
export const PRODUCTS = ['cucm', 'imp', 'cuc'] as const;
export type Product = (typeof PRODUCTS)[number];

export const CLIENT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** One AUTH_CLIENTS entry: `name:profile:products[:redirect_uri|redirect_uri...]`. */
export interface ClientSpec {
  name: string;
  profile: string;
  products: Product[];
  redirectUris: string[];
}

/**
 * Parses AUTH_CLIENTS (comma-separated entries). The fourth field is everything after the third colon,
 * since redirect URIs contain colons themselves. Any bad entry is a ConfigError that names it.
 */
export function parseAuthClients(raw: string, profiles: ReadonlySet<string>): ClientSpec[] {
  const specs: ClientSpec[] = [];
  const seen = new Set<string>();
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  for (const [index, entry] of entries.entries()) {
    const where = `AUTH_CLIENTS entry ${index + 1} ("${shownUri(entry)}")`;
    const parts = entry.split(':');
    if (parts.length < 3) throw new ConfigError(`${where}: expected name:profile:products[:redirect_uris]`);
    const [name, profile, productField] = parts.map((p) => p.trim()) as [string, string, string];
    const rest = parts.slice(3).join(':').trim();

    if (!CLIENT_NAME.test(name))
      throw new ConfigError(
        `${where}: client name must match ${CLIENT_NAME.source} (lower-case letters, digits, - and _)`,
      );
    if (seen.has(name)) throw new ConfigError(`${where}: client "${name}" is listed twice`);
    seen.add(name);
    if (!profiles.has(profile)) {
      const known = [...profiles].sort().join(', ') || 'none';
      throw new ConfigError(`${where}: unknown profile "${profile}" (profiles/ has: ${known})`);
    }
    const products = parseProducts(productField, where);
    const redirectUris = rest === '' ? [] : parseRedirectUris(rest, where);
    specs.push({ name, profile, products, redirectUris });
  }
  return specs;
}

function parseProducts(field: string, where: string): Product[] {
  const items = field.split('+').map((p) => p.trim());
  const out: Product[] = [];
  for (const item of items) {
    if (!(PRODUCTS as readonly string[]).includes(item))
      throw new ConfigError(
        `${where}: unknown product "${item}" (allowed: ${PRODUCTS.join(', ')}, joined by +)`,
      );
    if (!out.includes(item as Product)) out.push(item as Product);
  }
  return out;
}

function parseRedirectUris(field: string, where: string): string[] {
  const uris = field.split('|').map((u) => u.trim());
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new ConfigError(`${where}: redirect URI "${shownUri(uri)}" ${problem}`);
  }
  return [...new Set(uris)];
}
