import {
  toolsFor,
  type NodeAddressGuard,
  type NodeIoSettings,
  type PluginServices,
} from '../../kernel/sdk/index.ts';
import { requestOptionsOf } from '../_shared/axl/transport.ts';
import { closeAxlVosState, createAxlVosState, productSchemaRoot } from '../_shared/tools/create-state.ts';
import type { AxlState, VosState } from '../_shared/tools/plugin-state.ts';
import type { ServiceabilityState } from '../_shared/serviceability/state.ts';
import { createServiceabilityState } from '../_shared/serviceability/state.ts';
import { RisService } from './ris/ris-service.ts';

/** What the CUCM tools share: AXL clients and schema cache, VOS CLI shells, the RisPort70 client. */
export interface CucmShared extends AxlState, VosState, ServiceabilityState {
  ris: RisService;
  /** The NODE_* settings, for the phone screenshots (unset: the transport's defaults). */
  nodeIo?: NodeIoSettings;
  /** The node address policy, for the phone screenshots (unset: the always-refused list only). */
  addresses?: NodeAddressGuard;
}

export function setupCucm(services: PluginServices): CucmShared {
  const io = services.settings.nodeIo;
  const addresses = services.kernel.nodeAddresses;
  return {
    ...createAxlVosState('cucm', services.dirs.schemaCache, io, addresses),
    ...createServiceabilityState('cucm', io, addresses),
    ris: new RisService({
      schemaCache: productSchemaRoot(services.dirs.schemaCache, 'cucm'),
      downloadTool: 'cucm_download_ris_toolkit',
      ...requestOptionsOf(io, addresses),
    }),
    ...(io ? { nodeIo: io } : {}),
    ...(addresses ? { addresses } : {}),
  };
}

export async function teardownCucm(shared: CucmShared): Promise<void> {
  shared.ris.close();
  await closeAxlVosState(shared);
}

/** defineTool for this plugin's own tools (typed ctx.shared). */
export const cucmTool = toolsFor<CucmShared>();

export const CUCM_CREDENTIALS = { product: 'cucm', primary: 'axl' } as const;
