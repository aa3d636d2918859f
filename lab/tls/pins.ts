// What a client of the lab trusts to verify the nodes' HTTPS, from the lab's info: what tests, the demo
// and the benchmarks pin, so that one place knows whether the nodes' certificates are self-signed.
import type { LabInfo, LabNodeInfo } from '../types.ts';

/**
 * What a client pins to verify a node's HTTPS: its own certificate when self-signed (`cert_pem`), else
 * the lab CA (`ca_cert_pem`). Phones serve plain HTTP: nothing. Each node as it is: in a lab seeded with
 * only some products' self-signed weaknesses, the nodes differ.
 */
export function labTlsPin(info: LabInfo, node: LabNodeInfo): { caCertPem?: string; certPem?: string } {
  if (node.product === 'phone') return {};
  if (!selfSigned(info, node)) return { caCertPem: info.caCertPem };
  if (!node.certPem) throw new Error(`the lab node ${node.name} serves no HTTPS certificate`);
  return { certPem: node.certPem };
}

/** Every certificate a raw TLS client of the lab needs as `ca`: the lab CA and each self-signed node's own. */
export function labTrustedPem(info: LabInfo): string {
  const https = info.nodes
    .flatMap((n) => [n, ...(n.subscribers ?? [])])
    .filter((n) => n.product !== 'phone' && n.certPem);
  const own = https.filter((n) => selfSigned(info, n)).map((n) => n.certPem ?? '');
  return [...(own.length < https.length ? [info.caCertPem] : []), ...own].join('');
}

/** The node's own flag; a LAB_INFO written before nodes carried one falls back on the lab-wide signer. */
function selfSigned(info: LabInfo, node: LabNodeInfo): boolean {
  return node.selfSigned ?? info.certificates !== 'lab-ca';
}
