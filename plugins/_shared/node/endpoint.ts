// Where and how to reach a managed node's HTTPS (or phone HTTP) service, from the caller's stored
// credential: the login, `options.address` when the service listens elsewhere than the host name
// says, and a per-host pinned CA or certificate. Written once for every product plugin.
import type { ClientVault, CredentialSecret, NodeAddressGuard, Product } from '../../../kernel/sdk/index.ts';
import { CredentialError, NODE_PORTS, splitAddress } from '../../../kernel/sdk/index.ts';
import type { NodeEndpoint } from '../axl/transport.ts';

export type HttpKind = 'axl' | 'cupi' | 'phone';

/** The endpoint a stored credential describes, for a service whose standard port is `defaultPort`. */
export function endpointOf(
  host: string,
  secret: CredentialSecret,
  defaultPort: number,
  addresses?: NodeAddressGuard,
): NodeEndpoint {
  const o = secret.options ?? {};
  const address = typeof o.address === 'string' && o.address.trim() !== '' ? o.address.trim() : host;
  const parts = splitAddress(address);
  if (!parts) throw new CredentialError(`the stored address of ${host} is not in host[:port] form`);
  return {
    host: parts.host,
    port: parts.port ?? defaultPort,
    username: secret.username,
    password: secret.password,
    ...(typeof o.caCertPem === 'string' ? { caCertPem: o.caCertPem } : {}),
    ...(typeof o.certPem === 'string' ? { certPem: o.certPem } : {}),
    ...(addresses ? { addresses } : {}),
  };
}

/**
 * Reads the caller's credential of `kind` for `host` and turns it into an endpoint (checked by
 * `addresses`). A credential that pins neither a CA nor a certificate gets the caller's certificate
 * trust on first use: the certificate trusted for the host (if any) is pinned as a cert_pem would be,
 * and a certificate the system CAs refuse is recorded for a `<product>_trust_certificate` decision.
 */
export async function loadEndpoint(
  vault: ClientVault,
  product: Product,
  kind: HttpKind,
  host: string,
  defaultPort: number,
  addresses?: NodeAddressGuard,
): Promise<NodeEndpoint> {
  const endpoint = endpointOf(host, await vault.get(product, kind, host), defaultPort, addresses);
  if (kind === 'phone' || endpoint.caCertPem !== undefined || endpoint.certPem !== undefined) return endpoint;
  const trusted = vault.certificates.pinned(product, host);
  return {
    ...endpoint,
    ...(trusted ? { certPem: trusted.pem } : {}),
    certificateTrust: { refuse: (pem) => vault.certificates.refuse(product, host, pem) },
  };
}

/** The standard ports (ARCHITECTURE.md, Managed nodes). */
export const PORTS = NODE_PORTS;
/** Address syntax is the kernel's, shared with the operator's `credentials` command. */
export { splitAddress };
