import {
  toolsFor,
  type CdrTransferSettings,
  type NodeAddressGuard,
  type NodeIoSettings,
  type PluginServices,
} from '../../kernel/sdk/index.ts';
import { requestOptionsOf } from '../_shared/axl/transport.ts';
import { closeAxlVosState, createAxlVosState, productSchemaRoot } from '../_shared/tools/create-state.ts';
import type { AxlState, VosState } from '../_shared/tools/plugin-state.ts';
import type { ServiceabilityState } from '../_shared/serviceability/state.ts';
import { createServiceabilityState } from '../_shared/serviceability/state.ts';
import { LogStore, type LogState } from '../_shared/serviceability/logs/store.ts';
import { axlClusterListing } from '../_shared/serviceability/cluster.ts';
import { nodeLimitStores } from '../_shared/node/window-limiter.ts';
import { ClusterRateLimiter } from './ris/rate-limiter.ts';
import { RisService } from './ris/ris-service.ts';

/** What the CUCM tools share: AXL clients and schema cache, VOS CLI shells, the RisPort70 client. */
export interface CucmShared extends AxlState, VosState, ServiceabilityState, LogState {
  ris: RisService;
  /** The NODE_* settings, for the phone screenshots (unset: the transport's defaults). */
  nodeIo?: NodeIoSettings;
  /** The node address policy, for the phone screenshots (unset: the always-refused list only). */
  addresses?: NodeAddressGuard;
  /** Where cucm_cdr_get receives the files a node pushes (unset: the tool refuses). */
  cdrTransfer?: CdrTransferSettings;
}

export function setupCucm(services: PluginServices): CucmShared {
  const io = services.settings.nodeIo;
  const addresses = services.kernel.nodeAddresses;
  const shared = services.kernel.sharedState;
  const axlVos = createAxlVosState('cucm', services.dirs.schemaCache, io, addresses, shared);
  // The cluster's RisPort70 budget in the kernel's shared state: every instance counts in one window.
  const ris = nodeLimitStores(shared, 'node|ris');
  return {
    ...axlVos,
    ...createServiceabilityState('cucm', io, addresses, axlClusterListing(axlVos.axl, 'cucm'), shared),
    logs: new LogStore(services.dirs.reports, 'cucm'),
    ris: new RisService({
      schemaCache: productSchemaRoot(services.dirs.schemaCache, 'cucm'),
      downloadTool: 'cucm_download_ris_toolkit',
      ...requestOptionsOf(io, addresses),
      limiter: new ClusterRateLimiter({ store: ris.windows, states: ris.states }),
    }),
    ...(io ? { nodeIo: io } : {}),
    ...(addresses ? { addresses } : {}),
    ...(services.settings.cdrTransfer ? { cdrTransfer: services.settings.cdrTransfer } : {}),
  };
}

export async function teardownCucm(shared: CucmShared): Promise<void> {
  shared.ris.close();
  await closeAxlVosState(shared);
}

/** defineTool for this plugin's own tools (typed ctx.shared). */
export const cucmTool = toolsFor<CucmShared>();

export const CUCM_CREDENTIALS = { product: 'cucm', primary: 'axl' } as const;
