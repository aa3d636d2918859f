// The nodes of a VOS cluster as one node's CLI lists them, and which of them the caller can reach: the
// CLI tools that read "every node of the cluster" ask the node they were given for `show network
// cluster`, then log in to each node for which the caller stored an OS credential of the same product.
// A node without one is reported, not guessed at (nothing is sent to an address the caller never named).
import type { ClientVault, Product } from '../../../kernel/sdk/index.ts';

export const NETWORK_CLUSTER_COMMAND = 'show network cluster';

export interface ClusterNode {
  ip: string;
  fqdn: string;
  hostname: string;
  role: string;
  /** `callmanager`, `cups`, `cuc`... as the node prints it. */
  product: string;
}

/**
 * `show network cluster`: one line per node, `<ip> <fqdn> <hostname> <Publisher|Subscriber> <product>
 * ...` (the layout the lab prints after the Cisco TechNote on CUCM cluster authentication; no Cisco
 * reference that was read here prints it, so only lines of that exact shape are taken). The server
 * table the publisher appends is not read.
 */
export function parseNetworkCluster(output: string): ClusterNode[] {
  const out: ClusterNode[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = /^\s*([0-9a-fA-F.:]+)\s+(\S+)\s+(\S+)\s+(Publisher|Subscriber)\s+(\S+)/.exec(line);
    if (!m || !/[.:]/.test(m[1]!)) continue;
    out.push({ ip: m[1]!, fqdn: m[2]!, hostname: m[3]!, role: m[4]!, product: m[5]! });
  }
  return out;
}

export interface NodeTarget {
  /** The node's hostname as the cluster lists it (or the host given, for one node). */
  node: string;
  role?: string;
  /** The caller's OS credential host that reaches it, when there is one. */
  credentialHost?: string;
}

/**
 * Every node of `nodes` with the caller's credential (`kind`, OS by default) of `product` that names it
 * (hostname, FQDN or IP, case-insensitive); `given` (the credential the call came with) always maps to the
 * node it is.
 */
export async function targetsFor(
  vault: ClientVault,
  product: Product,
  given: string,
  nodes: ClusterNode[],
  /** The credential that reaches a node: the OS one (CLI tools) or another (serviceability: axl, cupi). */
  kind: 'os' | 'axl' | 'cupi' | 'phone' = 'os',
): Promise<NodeTarget[]> {
  const hosts = (await vault.list(product)).filter((c) => c.kind === kind).map((c) => c.host.toLowerCase());
  const norm = (h: string): string => h.toLowerCase().replace(/:\d+$/, '');
  const pick = (n: ClusterNode): string | undefined =>
    hosts.find((h) => [n.hostname, n.fqdn, n.ip].some((name) => norm(h) === name.toLowerCase()));
  const givenHost = norm(given);
  const targets = nodes.map((n): NodeTarget => {
    const isGiven = [n.hostname, n.fqdn, n.ip].some((name) => name.toLowerCase() === givenHost);
    const credentialHost = isGiven ? given : pick(n);
    return { node: n.hostname, role: n.role, ...(credentialHost ? { credentialHost } : {}) };
  });
  // A node that does not list itself (an unrecognised answer) is still read.
  if (!targets.some((t) => t.credentialHost === given))
    targets.unshift({ node: given, credentialHost: given });
  return targets;
}
