// What a product plugin keeps for the serviceability tools: one client, whose per-node budgets every
// serviceability tool of the product shares (PerfMon, ControlCenterServices, logs...).
import type { NodeAddressGuard, NodeIoSettings, Product } from '../../../kernel/sdk/index.ts';
import { requestOptionsOf } from '../axl/transport.ts';
import { ServiceabilityClient } from './client.ts';
import type { ClusterListing } from './cluster.ts';

export interface ServiceabilityState {
  serviceability: ServiceabilityClient;
  /** How the product lists its cluster's nodes for "every node" reads (cluster.ts). */
  clusterNodes: ClusterListing;
}

export function createServiceabilityState(
  product: Product,
  io: NodeIoSettings | undefined,
  addresses: NodeAddressGuard | undefined,
  clusterNodes: ClusterListing,
): ServiceabilityState {
  return {
    serviceability: new ServiceabilityClient({ product, ...requestOptionsOf(io, addresses) }),
    clusterNodes,
  };
}
