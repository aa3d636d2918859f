import type { PluginServices } from '../../kernel/sdk/index.ts';
import { closeAxlVosState, createAxlVosState } from '../_shared/tools/create-state.ts';
import type { AxlState, VosState } from '../_shared/tools/plugin-state.ts';
import type { ServiceabilityState } from '../_shared/serviceability/state.ts';
import { createServiceabilityState } from '../_shared/serviceability/state.ts';

/**
 * What the IM&P tools share: AXL clients and schema cache, VOS CLI shells (the CUCM plugin's code), the
 * serviceability SOAP client.
 */
export type ImpShared = AxlState & VosState & ServiceabilityState;

export function setupImp(services: PluginServices): ImpShared {
  const io = services.settings.nodeIo;
  const addresses = services.kernel.nodeAddresses;
  return {
    ...createAxlVosState('imp', services.dirs.schemaCache, io, addresses),
    ...createServiceabilityState('imp', io, addresses),
  };
}

export const teardownImp = closeAxlVosState;

export const IMP_CREDENTIALS = { product: 'imp', primary: 'axl' } as const;
