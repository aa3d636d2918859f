// Unity Connection's own list of its cluster's servers, for the serviceability tools' "every node"
// reads: CUPI GET /vmrest/cluster, answering VmsServers with one VmsServer per node (ServerName,
// HostName, IpAddress, ClusterMemberId...: Cisco DocWiki, "Cisco Unity Connection Provisioning Interface
// (CUPI) API -- Cluster", https://docwiki.cisco.com/wiki/Cisco_Unity_Connection_Provisioning_Interface_(CUPI)_API_--_Cluster).
// Read with the stored CUPI credential: no SSH login.
import type { ClusterListing } from '../../_shared/serviceability/cluster.ts';
import type { ClusterNode } from '../../_shared/vos/cluster-nodes.ts';
import type { CupiClients } from './cupi-clients.ts';

export const CUPI_CLUSTER_PATH = '/vmrest/cluster';

export function cupiClusterListing(cupi: CupiClients): ClusterListing {
  return {
    list: async (vault, host, signal) =>
      vmsServers((await cupi.request(vault, host, { method: 'GET', path: CUPI_CLUSTER_PATH }, signal)).body),
  };
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The servers of a /vmrest/cluster answer (JSON: one object alone, several in an array). */
export function vmsServers(body: unknown): ClusterNode[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const raw = (body as Record<string, unknown>).VmsServer;
  const list: unknown[] = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const out: ClusterNode[] = [];
  for (const s of list) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) continue;
    const v = s as Record<string, unknown>;
    const name = text(v.ServerName) ?? text(v.HostName) ?? text(v.IpAddress);
    if (!name) continue;
    out.push({
      hostname: name,
      fqdn: text(v.HostName) ?? name,
      ip: text(v.IpAddress) ?? name,
      // ClusterMemberId 0 is the first server in the DocWiki example; the document does not name roles.
      role: '',
      product: 'cuc',
    });
  }
  return out;
}
