import type { PluginServices } from '../../kernel/sdk/index.ts';
import { closeAxlVosState, createAxlVosState } from '../_shared/tools/create-state.ts';
import type { AxlState, VosState } from '../_shared/tools/plugin-state.ts';

/** What the IM&P tools share: AXL clients and schema cache, VOS CLI shells (the CUCM plugin's code). */
export type ImpShared = AxlState & VosState;

export function setupImp(services: PluginServices): ImpShared {
  return createAxlVosState(
    'imp',
    services.dirs.schemaCache,
    services.settings.nodeIo,
    services.kernel.nodeAddresses,
  );
}

export const teardownImp = closeAxlVosState;

export const IMP_CREDENTIALS = { product: 'imp', primary: 'axl' } as const;
