// The checks on a credential's connection options (where to connect, which certificate to trust) and
// where a credential will make the server connect. Pure and in the kernel, because two callers hold
// the same rules: the plugins' *_store_credentials tools (through the SDK) and the operator's
// `credentials` command, which may not import plugins.
import { X509Certificate } from 'node:crypto';
import { BadRequestError } from '../errors/index.ts';
import type { CredentialKind } from './identity.ts';
import type { CredentialSecret } from './sealed-record.ts';

/** The standard ports of the managed nodes' services (ARCHITECTURE.md, Managed nodes). */
export const NODE_PORTS = { https: 8443, ssh: 22, phoneHttp: 80, phoneHttps: 443 } as const;

/** `host[:port]` or `[v6][:port]`, or undefined when the text is not an address of that form. */
export function splitAddress(text: string): { host: string; port: number | undefined } | undefined {
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  const plain = /^([^:[\]/@\s]+)(?::(\d{1,5}))?$/.exec(text);
  const m = v6 ?? plain;
  if (!m?.[1]) return undefined;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined;
  return { host: m[1], port };
}

/** The PEM itself when it parses as an X.509 certificate; BadRequestError naming `field` otherwise. */
export function checkCertificatePem(pem: string, field: string): string {
  try {
    new X509Certificate(pem);
  } catch {
    throw new BadRequestError(`${field} is not a parsable X.509 certificate`);
  }
  return pem;
}

/**
 * Where a credential will make the server connect: its `address` option, else the host, with the
 * kind's standard port. Undefined when the text is no address (the vault then refuses the host itself).
 */
export function credentialTarget(
  kind: CredentialKind,
  host: string,
  secret: CredentialSecret,
): { host: string; port: number } | undefined {
  const o = secret.options ?? {};
  const address = typeof o.address === 'string' && o.address.trim() !== '' ? o.address.trim() : host;
  const parts = splitAddress(address);
  if (!parts) return undefined;
  const standard =
    kind === 'os'
      ? NODE_PORTS.ssh
      : kind === 'phone'
        ? o.scheme === 'https'
          ? NODE_PORTS.phoneHttps
          : NODE_PORTS.phoneHttp
        : NODE_PORTS.https;
  return { host: parts.host, port: parts.port ?? standard };
}
