// A tool whose input schema declares x-mcp-header (SEP-2243: a parameter the client mirrors into an
// Mcp-Param-* header) is refused at load: the server does not check such headers against the body, and
// publishing the tool would promise that it does.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { loadPlugins } from '../../../kernel/plugins/loader.ts';
import { PluginRegistry } from '../../../kernel/plugins/registry.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const SDK = JSON.stringify(join(PROJECT_ROOT, 'kernel/sdk/index.ts'));

function bundle(dir: string, id: string, input: string): void {
  mkdirSync(join(dir, id), { recursive: true });
  writeFileSync(
    join(dir, id, 'index.ts'),
    `import { definePlugin, defineTool, z } from ${SDK};
const t = defineTool({ name: 'probe_${id}', title: 't', description: 'd', input: ${input},
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: { minProfile: 'auditor' }, service: 'default', handler: async () => ({}) });
export default definePlugin({ id: '${id}', version: '1.0.0', kernel: '^1', product: null, module: 'common',
  requires: [], tools: [t], prompts: [], resources: [] });
`,
  );
}

describe('tool schemas with parameter headers', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('are refused, at any depth; a schema with other metadata loads', async () => {
    const dir = join(state.dir, 'plugins');
    bundle(dir, 'top', `{ region: z.string().meta({ 'x-mcp-header': 'Region' }) }`);
    bundle(dir, 'nested', `{ where: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }) }`);
    bundle(dir, 'plain', `{ region: z.string().meta({ description: 'a region', examples: ['emea'] }) }`);
    const r = await loadPlugins({
      pluginsDirs: [dir],
      registry: new PluginRegistry(),
      gate: () => ({ ok: true }),
      log: bunyan.createLogger({ name: 't', streams: [] }),
      services: () => ({}) as never,
    });
    assert.deepEqual(r.loaded, ['plain']);
    const reasons = Object.fromEntries(r.refused.map((x) => [x.folder, x.reason]));
    assert.match(reasons.top ?? '', /common_probe_top declares x-mcp-header/);
    assert.match(reasons.nested ?? '', /common_probe_nested declares x-mcp-header/);
  });
});
