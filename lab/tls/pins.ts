// What a client of the lab trusts to verify the nodes' HTTPS, from the lab's info: what tests, the demo
// and the benchmarks pin, so that one place knows whether the nodes' certificates are self-signed.
import type { LabInfo, LabNodeInfo } from '../types.ts';

/**
 * What a client pins to verify a node's HTTPS: its own certificate when self-signed (`cert_pem`), else
 * the lab CA (`ca_cert_pem`). Phones serve plain HTTP: nothing.
 */
export function labTlsPin(info: LabInfo, node: LabNodeInfo): { caCertPem?: string; certPem?: string } {
  if (node.product === 'phone') return {};
  if (info.certificates === 'lab-ca') return { caCertPem: info.caCertPem };
  if (!node.certPem) throw new Error(`the lab node ${node.name} serves no HTTPS certificate`);
  return { certPem: node.certPem };
}

/** Every certificate a raw TLS client of the lab needs as `ca`: the lab CA, or each node's own. */
export function labTrustedPem(info: LabInfo): string {
  if (info.certificates === 'lab-ca') return info.caCertPem;
  return info.nodes.flatMap((n) => (n.certPem ? [n.certPem] : [])).join('');
}
