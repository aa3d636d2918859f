// The AXL and VOS CLI state a product plugin's setup builds (CUCM and IM&P both), and its teardown.
import { join } from 'node:path';
import type { NodeAddressGuard, NodeIoSettings, Product, SharedState } from '../../../kernel/sdk/index.ts';
import { nodeLimitStores } from '../node/window-limiter.ts';
import { HeldAnswers } from '../axl/answer-cursor.ts';
import { AxlConnections } from '../axl/connections.ts';
import { AxlSchemaCache } from '../axl/schema-cache.ts';
import { requestOptionsOf } from '../axl/transport.ts';
import { shellPoolOptions, VosShellPool } from '../vos/shell-pool.ts';
import type { AxlState, VosState } from './plugin-state.ts';

/** Schemas of each product live apart: `<schemaCache>/<product>/axl/<version>/`. */
export function productSchemaRoot(schemaCache: string, product: Product): string {
  return join(schemaCache, product);
}

export function createAxlVosState(
  product: Product,
  schemaCache: string,
  io?: NodeIoSettings,
  addresses?: NodeAddressGuard,
  /** The kernel's shared state: nodes' AXL throttling blocks are kept there (unset: memory). */
  shared?: SharedState,
): AxlState & VosState {
  const cache = new AxlSchemaCache(
    productSchemaRoot(schemaCache, product),
    `${product}_download_axl_toolkit`,
  );
  return {
    axl: new AxlConnections({
      product,
      cache,
      ...requestOptionsOf(io, addresses),
      throttle: nodeLimitStores(shared, 'node|axl').states,
    }),
    held: new HeldAnswers(),
    shells: new VosShellPool(shellPoolOptions(io, addresses)),
  };
}

export async function closeAxlVosState(state: AxlState & VosState): Promise<void> {
  state.axl.close();
  await state.shells.closeAll();
}
