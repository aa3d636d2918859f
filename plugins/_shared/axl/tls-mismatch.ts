// Why a node's TLS certificate was refused, in terms an operator can check: the fingerprint pinned (or
// the pinned CA) and the fingerprint the node presented. Verification itself stays with Node's TLS and
// the pinning in transport.ts; this only looks, after a refusal, at what the node showed. A node whose
// credential pins nothing goes to the caller's certificate trust on first use (ctx.vault.certificates),
// which records what was presented and answers with its fingerprint, subject and validity.
import { createHash, X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import {
  ConnectivityError,
  DENY_LIST_ONLY,
  type KernelError,
  type NodeAddressGuard,
} from '../../../kernel/sdk/index.ts';
import type { NodeEndpoint } from './transport.ts';

/** `AB:CD:...` (SHA-256 of the DER), as `openssl x509 -fingerprint -sha256` and browsers print it. */
export function sha256Fingerprint(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex').toUpperCase().match(/../g)?.join(':') ?? '';
}

/** The certificate the node presents, fetched without trusting it and without sending a byte of HTTP. */
export function presentedCertificate(
  node: NodeEndpoint,
  timeoutMs = 5_000,
): Promise<X509Certificate | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (cert: X509Certificate | undefined): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(cert);
    };
    // A second connection, so a second resolution: through the node address policy like the first.
    let dial: ReturnType<NodeAddressGuard['dialOptions']>;
    try {
      dial = (node.addresses ?? DENY_LIST_ONLY).dialOptions(node.host, node.port);
    } catch {
      resolve(undefined);
      return;
    }
    // Only to read the certificate: the connection is closed as soon as the handshake shows it, and no
    // request, credential or data is ever written to it.
    const socket = connect({
      host: node.host,
      port: node.port,
      rejectUnauthorized: false,
      ...(/^[\d.]+$|:/.test(node.host) ? {} : { servername: node.host }),
      ...dial,
    });
    socket.setTimeout(timeoutMs, () => done(undefined));
    socket.once('secureConnect', () => {
      const raw = socket.getPeerCertificate().raw;
      let cert: X509Certificate | undefined;
      try {
        cert = raw ? new X509Certificate(raw) : undefined;
      } catch {
        cert = undefined;
      }
      done(cert);
    });
    socket.once('error', () => done(undefined));
  });
}

function describe(cert: X509Certificate): string {
  const cn = (dn: string): string => /CN=([^\n,]+)/.exec(dn)?.[1] ?? (dn.split('\n')[0] || '?');
  const self = cert.subject === cert.issuer ? ', self-signed' : `, issued by ${cn(cert.issuer)}`;
  return `SHA-256 ${sha256Fingerprint(cert.raw)} (${cn(cert.subject)}${self})`;
}

function parse(pem: string | undefined): X509Certificate | undefined {
  if (!pem) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/**
 * The refusal of a TLS verification failure of `node`: what was pinned and what the node presented,
 * and what to do; for a node under trust on first use, the trust store's own refusal (recorded as
 * pending). `reason` is the TLS library's own message.
 */
export async function tlsRefusal(node: NodeEndpoint, reason: string, cause?: unknown): Promise<KernelError> {
  const presented = await presentedCertificate(node);
  if (presented && node.certificateTrust) {
    const refused = node.certificateTrust.refuse(presented.toString());
    if (refused) return refused;
  }
  return new ConnectivityError(refusalMessage(node, reason, presented), { cause });
}

function refusalMessage(node: NodeEndpoint, reason: string, presented: X509Certificate | undefined): string {
  const where = `${node.host}:${node.port}`;
  const shown = presented ? describe(presented) : 'a certificate that could not be read again';
  const pinned = parse(node.certPem);
  if (pinned) {
    if (presented && sha256Fingerprint(presented.raw) === sha256Fingerprint(pinned.raw))
      return pinned.subject === pinned.issuer
        ? `TLS verification of ${where} failed (${reason}): it presents the pinned certificate ${describe(pinned)}, valid from ${pinned.validFrom} to ${pinned.validTo}; regenerate it on the node if it expired, then pin the new one`
        : `TLS verification of ${where} failed (${reason}): it presents the pinned certificate ${describe(pinned)}, which is not self-signed; pin its issuing CA as ca_cert_pem instead`;
    return `the TLS certificate of ${where} does not match the pinned one: pinned ${describe(pinned)}, presented ${shown}; refused. If the node's certificate was replaced on purpose, check the new fingerprint on the node (show cert own tomcat) and update the credential's cert_pem (${reason})`;
  }
  const ca = parse(node.caCertPem);
  if (ca)
    return `the TLS certificate of ${where} is not issued by the pinned CA ${describe(ca)}: presented ${shown}; refused (${reason})`;
  return `TLS verification of ${where} failed (${reason}): presented ${shown}, not trusted by the system CAs; pin the node's CA (ca_cert_pem) or certificate (cert_pem) after checking it`;
}
