// The nodes of a product's cluster for the serviceability tools' "every node" reads, without an SSH
// login: the cluster's own list, read with the product's stored serviceability credential for the host
// given (AXL listProcessNode on CUCM and IM&P, CUPI GET /vmrest/cluster on Unity Connection), then each
// listed node reached only through a credential the caller stored for it, whose address the node address
// policy checks as any other. A listed node without one is reported (CredentialError) and nothing is
// sent to it. Every serviceability tool that
// reads "all nodes" asks here; the CLI tools (cert list, DRF status) keep `show network cluster`.
import type { ClientVault, Product } from '../../../kernel/sdk/index.ts';
import {
  BadRequestError,
  CredentialError,
  currentNodeRequests,
  type KernelError,
} from '../../../kernel/sdk/index.ts';
import type { AxlConnections } from '../axl/connections.ts';
import type { Json } from '../axl/schema.ts';
import { KIND_LABEL, PRODUCT_LABEL } from '../tools/product-labels.ts';
import type { ClusterNode, NodeTarget } from '../vos/cluster-nodes.ts';
import { targetsFor } from '../vos/cluster-nodes.ts';
import { SERVICEABILITY_LOGIN } from './api.ts';
import { codedFailure, type NodeFailure } from '../node/node-failures.ts';

/** How a product lists its cluster's nodes through one node the caller has a credential for. */
export interface ClusterListing {
  list(vault: ClientVault, host: string, signal?: AbortSignal): Promise<ClusterNode[]>;
}

/** What is sent to list them, for the call's audit summary (plugins/cuc/cupi/cluster-listing.ts for CUC). */
export const CLUSTER_LISTING_OPERATION: Record<Product, string> = {
  cucm: 'listProcessNode',
  imp: 'listProcessNode',
  cuc: 'GET /vmrest/cluster',
};

/**
 * AXL `listProcessNode` (AXL 15.0 schema, AXLSoap.xsd ListProcessNodeReq: searchCriteria name,
 * returnedTags LProcessNode name/nodeUsage/processNodeRole; AXLEnums.xsd XProcessNodeRole "CUCM
 * Voice/Video", "CUCM IM and Presence" and XNodeUsage "Publisher", "Subscriber"). A CUCM publisher's
 * table also holds the IM&P nodes and an IM&P node's the CUCM publisher: only the product's role is kept.
 */
export function axlClusterListing(axl: AxlConnections, product: 'cucm' | 'imp'): ClusterListing {
  const role = product === 'cucm' ? 'CUCM Voice/Video' : 'CUCM IM and Presence';
  return {
    list: (vault, host, signal) =>
      axl.with(
        vault,
        host,
        async ({ client }) =>
          processNodes(
            await client.call('listProcessNode', {
              searchCriteria: { name: '%' },
              returnedTags: { name: '', nodeUsage: '', processNodeRole: '' },
            }),
            role,
            product,
          ),
        signal,
      ),
  };
}

/** The enterprise parameters' pseudo-node of the processnode table: not a server. */
const ENTERPRISE_NODE = 'EnterpriseWideData';

function text(v: Json | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The nodes of a listProcessNode answer with `role` (read leniently: the schema's order is not relied on). */
export function processNodes(answer: Json, role: string, product: Product): ClusterNode[] {
  const ret =
    answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? answer.return : undefined;
  const raw = ret !== null && typeof ret === 'object' && !Array.isArray(ret) ? ret?.processNode : undefined;
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const out: ClusterNode[] = [];
  for (const p of list) {
    if (p === null || typeof p !== 'object' || Array.isArray(p)) continue;
    const name = text(p.name);
    if (!name || name === ENTERPRISE_NODE) continue;
    const nodeRole = text(p.processNodeRole);
    if (nodeRole !== undefined && nodeRole !== role) continue;
    // The processnode name is the node's host name, FQDN or IP, as it was added: a credential stored
    // under that same name reaches it.
    out.push({ ip: name, fqdn: name, hostname: name, role: text(p.nodeUsage) ?? '', product });
  }
  return out;
}

export interface ClusterTargets {
  /** Nodes with a credential, the host given first; `credentialHost` is what to ask. */
  reached: (NodeTarget & { credentialHost: string })[];
  /** Nodes listed without a credential of the caller: not contacted. */
  unreached: NodeFailure[];
}

/** Nodes read at most in one call (a CUCM cluster has about twenty). */
export const MAX_CLUSTER_NODES = 32;

/** Every node of `host`'s cluster, split into those the caller can reach and those it cannot. */
export async function clusterTargets(
  listing: ClusterListing,
  vault: ClientVault,
  product: Product,
  host: string,
  signal?: AbortSignal,
): Promise<ClusterTargets> {
  const kind = SERVICEABILITY_LOGIN[product];
  // The listing is a request of its own (AXL or CUPI): the caller's allowlist decides it like any other.
  currentNodeRequests().permit(product === 'cuc' ? 'cupi' : 'axl', CLUSTER_LISTING_OPERATION[product]);
  const targets = await targetsFor(vault, product, host, await listing.list(vault, host, signal), kind);
  // The host given first, whatever the cluster's order.
  targets.sort((a, b) => Number(b.credentialHost === host) - Number(a.credentialHost === host));
  const reached: ClusterTargets['reached'] = [];
  const unreached: NodeFailure[] = [];
  const notRead = (node: string, cause: KernelError): void => {
    unreached.push({ node, error: codedFailure(cause), cause });
  };
  for (const t of targets) {
    if (!t.credentialHost)
      notRead(
        t.node,
        new CredentialError(
          `no ${PRODUCT_LABEL[product]} ${KIND_LABEL[kind]} credential names ${t.node}; store one under that name to include it`,
        ),
      );
    else if (reached.length >= MAX_CLUSTER_NODES)
      notRead(t.node, new BadRequestError(`not read: at most ${MAX_CLUSTER_NODES} nodes per call`));
    else reached.push({ ...t, credentialHost: t.credentialHost });
  }
  return { reached, unreached };
}
