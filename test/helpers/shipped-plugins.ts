import { join } from 'node:path';
import bunyan from 'bunyan';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { loadPlugins } from '../../kernel/plugins/loader.ts';
import { PluginRegistry } from '../../kernel/plugins/registry.ts';
import type { KernelServices } from '../../kernel/sdk/kernel-services.ts';

/** Loads every shipped plugin bundle into a registry, without a server (definitions only). */
export async function loadShippedPlugins(): Promise<PluginRegistry> {
  const registry = new PluginRegistry();
  const result = await loadPlugins({
    pluginsDirs: [join(PROJECT_ROOT, 'plugins')],
    registry,
    gate: () => ({ ok: true }),
    log: bunyan.createLogger({ name: 'test', streams: [] }),
    services: () => ({
      log: bunyan.createLogger({ name: 'test', streams: [] }),
      dirs: { reports: '/nonexistent/reports', schemaCache: '/nonexistent/schema-cache' },
      kernel: {} as KernelServices,
      settings: { chromiumPath: '/nonexistent/chromium', reportMaxBytes: 1024 },
    }),
  });
  if (result.refused.length > 0)
    throw new Error(`shipped plugins refused: ${JSON.stringify(result.refused)}`);
  return registry;
}
