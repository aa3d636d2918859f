import { isIPv4, isIPv6 } from 'node:net';
import { CredentialError } from '../errors/index.ts';

/** Managed products (functional-spec.md, What the service does). */
export const PRODUCTS = ['cucm', 'imp', 'cuc'] as const;
export type Product = (typeof PRODUCTS)[number];

/** Credential kinds (functional-spec.md, Managed host credentials). */
export const CREDENTIAL_KINDS = ['axl', 'cupi', 'os', 'phone'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** Which product holds which kind: the spec's table, nothing more (CUC has no AXL, only CUCM has phones). */
export const KINDS_BY_PRODUCT: Readonly<Record<Product, readonly CredentialKind[]>> = {
  cucm: ['axl', 'os', 'phone'],
  imp: ['axl', 'os'],
  cuc: ['cupi', 'os'],
};

/** Who a sealed record belongs to; bound inside the ciphertext so a record cannot be moved. */
export interface RecordIdentity {
  client: string;
  product: Product;
  kind: CredentialKind;
  host: string;
}

// Client names become directory names under clients/: no separators, no dot-only names.
const CLIENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const MAX_HOSTNAME = 253;
const MAX_HOST_INPUT = 270;

export function checkClientName(client: string): string {
  if (typeof client !== 'string' || !CLIENT_NAME.test(client)) {
    throw new CredentialError('invalid client name for the credential vault');
  }
  return client;
}

export function isProduct(v: unknown): v is Product {
  return typeof v === 'string' && (PRODUCTS as readonly string[]).includes(v);
}

export function checkProduct(product: unknown): Product {
  if (!isProduct(product)) throw new CredentialError(`unknown product ${describe(product)}`);
  return product;
}

export function checkKind(product: Product, kind: unknown): CredentialKind {
  const allowed = KINDS_BY_PRODUCT[product];
  if (typeof kind !== 'string' || !(allowed as readonly string[]).includes(kind)) {
    throw new CredentialError(
      `credential kind ${describe(kind)} does not exist for ${product} (allowed: ${allowed.join(', ')})`,
    );
  }
  return kind as CredentialKind;
}

/**
 * Validates and normalises a managed host: `name[:port]`, where name is a DNS name, a dotted IPv4
 * address or a bracketed IPv6 address. Lower-cased, IPv6 compressed, so that `CUCM1` and `cucm1` are
 * one slot. Anything that could smuggle a path, a user or a second host is refused.
 */
export function normaliseHost(input: unknown): string {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_HOST_INPUT) {
    throw new CredentialError(`invalid host: expected name[:port] of at most ${MAX_HOSTNAME} characters`);
  }
  const lower = input.toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(lower);
  if (v6) {
    const addr = v6[1] as string;
    if (!isIPv6(addr)) throw invalidHost(input);
    const canonical = new URL(`http://[${addr}]/`).hostname;
    return withPort(canonical, v6[2], input);
  }
  const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(lower);
  if (!m) throw invalidHost(input);
  const name = m[1] as string;
  if (!isIPv4(name) && !isHostname(name)) throw invalidHost(input);
  return withPort(name, m[2], input);
}

function isHostname(name: string): boolean {
  if (name.length > MAX_HOSTNAME) return false;
  const labels = name.split('.');
  if (!labels.every((l) => LABEL.test(l))) return false;
  // A numeric last label is an IPv4 attempt (URL standard); "10.1.2" would resolve to 10.1.0.2.
  const last = labels[labels.length - 1] as string;
  return !/^(?:\d+|0x[0-9a-f]*)$/.test(last);
}

function withPort(name: string, port: string | undefined, input: string): string {
  if (port === undefined) return name;
  const n = Number(port);
  if (!/^[1-9]\d*$/.test(port) || n > 65535) throw invalidHost(input);
  return `${name}:${n}`;
}

// The rejected value is not echoed: a mistyped host can hold a password ("admin:secret@cucm1").
function invalidHost(input: string): CredentialError {
  const why = /[@]/.test(input)
    ? 'user information (@) is not allowed'
    : /[\s/\\?#]/.test(input)
      ? 'spaces, slashes, ? and # are not allowed'
      : 'expected name[:port] with a DNS name, a dotted IPv4 address or a bracketed IPv6 address';
  return new CredentialError(`invalid host: ${why}`);
}

/** Quotes a caller-supplied value for a message, clipped and with control characters escaped. */
export function describe(v: unknown): string {
  if (typeof v !== 'string') return typeof v;
  const clipped = v.length > 32 ? `${v.slice(0, 32)}…` : v;
  return JSON.stringify(clipped);
}

/** The key of a record in the client's file; hosts never contain '/', so it splits back unambiguously. */
export function slotKey(product: Product, kind: CredentialKind, host: string): string {
  return `${product}/${kind}/${host}`;
}

export function parseSlotKey(key: string): { product: Product; kind: CredentialKind; host: string } | null {
  const [product, kind, host, extra] = key.split('/');
  if (extra !== undefined || !isProduct(product) || host === undefined) return null;
  if (!(KINDS_BY_PRODUCT[product] as readonly string[]).includes(kind ?? '')) return null;
  try {
    if (normaliseHost(host) !== host) return null;
  } catch {
    return null;
  }
  return { product, kind: kind as CredentialKind, host };
}
