// What a product plugin keeps for the serviceability tools: one client, whose per-node budgets every
// serviceability tool of the product shares (PerfMon, ControlCenterServices, logs...).
import type { NodeAddressGuard, NodeIoSettings, Product, SharedState } from '../../../kernel/sdk/index.ts';
import { nodeLimitStores } from '../node/window-limiter.ts';
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
  /** The kernel's shared state: the nodes' budgets and blocks are kept there (unset: memory). */
  shared?: SharedState,
): ServiceabilityState {
  const stores = nodeLimitStores(shared, 'node|serviceability');
  return {
    serviceability: new ServiceabilityClient({
      product,
      ...requestOptionsOf(io, addresses),
      limitOptions: { store: stores.windows, states: stores.states },
    }),
    clusterNodes,
  };
}
