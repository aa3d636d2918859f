import type { PluginServices } from '../../kernel/sdk/index.ts';
import { closeAxlVosState, createAxlVosState } from '../_shared/tools/create-state.ts';
import type { AxlState, VosState } from '../_shared/tools/plugin-state.ts';
import type { ServiceabilityState } from '../_shared/serviceability/state.ts';
import { createServiceabilityState } from '../_shared/serviceability/state.ts';
import { LogStore, type LogState } from '../_shared/serviceability/logs/store.ts';
import { axlClusterListing } from '../_shared/serviceability/cluster.ts';

/**
 * What the IM&P tools share: AXL clients and schema cache, VOS CLI shells (the CUCM plugin's code), the
 * serviceability SOAP client.
 */
export type ImpShared = AxlState & VosState & ServiceabilityState & LogState;

export function setupImp(services: PluginServices): ImpShared {
  const io = services.settings.nodeIo;
  const addresses = services.kernel.nodeAddresses;
  const shared = services.kernel.sharedState;
  const axlVos = createAxlVosState('imp', services.dirs.schemaCache, io, addresses, shared);
  return {
    ...axlVos,
    ...createServiceabilityState('imp', io, addresses, axlClusterListing(axlVos.axl, 'imp'), shared),
    logs: new LogStore(services.dirs.reports, 'imp'),
  };
}

export const teardownImp = closeAxlVosState;

export const IMP_CREDENTIALS = { product: 'imp', primary: 'axl' } as const;
