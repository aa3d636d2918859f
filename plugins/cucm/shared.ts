import { toolsFor, type PluginServices } from '../../kernel/sdk/index.ts';
import { closeAxlVosState, createAxlVosState, productSchemaRoot } from '../_shared/tools/create-state.ts';
import type { AxlState, VosState } from '../_shared/tools/plugin-state.ts';
import { RisService } from './ris/ris-service.ts';

/** What the CUCM tools share: AXL clients and schema cache, VOS CLI shells, the RisPort70 client. */
export interface CucmShared extends AxlState, VosState {
  ris: RisService;
}

export function setupCucm(services: PluginServices): CucmShared {
  return {
    ...createAxlVosState('cucm', services.dirs.schemaCache),
    ris: new RisService({
      schemaCache: productSchemaRoot(services.dirs.schemaCache, 'cucm'),
      downloadTool: 'cucm_download_ris_toolkit',
    }),
  };
}

export async function teardownCucm(shared: CucmShared): Promise<void> {
  shared.ris.close();
  await closeAxlVosState(shared);
}

/** defineTool for this plugin's own tools (typed ctx.shared). */
export const cucmTool = toolsFor<CucmShared>();

export const CUCM_CREDENTIALS = { product: 'cucm', primary: 'axl' } as const;
