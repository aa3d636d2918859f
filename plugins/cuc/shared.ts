import { toolsFor, type PluginServices } from '../../kernel/sdk/index.ts';
import type { VosState } from '../_shared/tools/plugin-state.ts';
import type { ServiceabilityState } from '../_shared/serviceability/state.ts';
import { createServiceabilityState } from '../_shared/serviceability/state.ts';
import { LogStore, type LogState } from '../_shared/serviceability/logs/store.ts';
import { requestOptionsOf } from '../_shared/axl/transport.ts';
import { shellPoolOptions, VosShellPool } from '../_shared/vos/shell-pool.ts';
import { CupiClients } from './cupi/cupi-clients.ts';
import { cupiClusterListing } from './cupi/cluster-listing.ts';

/**
 * What the Unity Connection tools share: CUPI sessions (JSESSIONID reuse), VOS CLI shells and the
 * serviceability SOAP client.
 */
export interface CucShared extends VosState, ServiceabilityState, LogState {
  cupi: CupiClients;
}

export function setupCuc(services: PluginServices): CucShared {
  const io = services.settings.nodeIo;
  const addresses = services.kernel.nodeAddresses;
  const cupi = new CupiClients(requestOptionsOf(io, addresses));
  return {
    cupi,
    shells: new VosShellPool(shellPoolOptions(io, addresses)),
    ...createServiceabilityState('cuc', io, addresses, cupiClusterListing(cupi), services.kernel.sharedState),
    logs: new LogStore(services.dirs.reports, 'cuc'),
  };
}

export async function teardownCuc(shared: CucShared): Promise<void> {
  shared.cupi.close();
  await shared.shells.closeAll();
}

/** defineTool for this plugin's own tools (typed ctx.shared). */
export const cucTool = toolsFor<CucShared>();

export const CUC_CREDENTIALS = { product: 'cuc', primary: 'cupi' } as const;
