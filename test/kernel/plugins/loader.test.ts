import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { satisfiesCaret } from '../../../kernel/plugins/declaration.ts';
import { loadPlugins } from '../../../kernel/plugins/loader.ts';
import { PluginRegistry } from '../../../kernel/plugins/registry.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const SDK = join(PROJECT_ROOT, 'kernel/sdk/index.ts');

function bundle(dir: string, id: string, body: string): void {
  mkdirSync(join(dir, id), { recursive: true });
  writeFileSync(
    join(dir, id, 'index.ts'),
    `import { definePlugin, defineTool, z } from ${JSON.stringify(SDK)};\n${body}\n`,
  );
}

const tool = (name: string) =>
  `defineTool({ name: '${name}', title: 't', description: 'd', input: { x: z.string() }, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, access: { minProfile: 'auditor' }, service: 'default', handler: async () => ({}) })`;

const plugin = (id: string, fields: string) =>
  `export default definePlugin({ id: '${id}', version: '1.0.0', kernel: '^1', product: null, module: 'common', requires: [], tools: [], prompts: [], resources: [], ${fields} });`;

describe('plugin loader', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('registers good bundles and refuses each bad one with its reason', async () => {
    const dir = join(state.dir, 'plugins');
    bundle(dir, 'good', plugin('good', `tools: [${tool('alpha')}]`));
    bundle(dir, 'needs-missing', plugin('needs-missing', `requires: ['absent']`));
    bundle(dir, 'dup', plugin('dup', `tools: [${tool('alpha')}]`));
    bundle(dir, 'future', plugin('future', `kernel: '^2'`));
    bundle(dir, 'badname', plugin('badname', `tools: [${tool('Bad-Name')}]`));
    bundle(dir, 'wrongid', plugin('other', ''));
    bundle(dir, 'tampered', plugin('tampered', ''));
    bundle(dir, 'dep', plugin('dep', `requires: ['good']`));
    const registry = new PluginRegistry();
    const r = await loadPlugins({
      pluginsDirs: [dir],
      registry,
      gate: (id) => (id === 'tampered' ? { ok: false, reason: 'modified: index.ts' } : { ok: true }),
      log: bunyan.createLogger({ name: 't', streams: [] }),
      services: () => ({}) as never,
    });
    assert.deepEqual(r.loaded.sort(), ['dep', 'good']);
    const reasons = Object.fromEntries(r.refused.map((x) => [x.folder, x.reason]));
    assert.match(reasons['needs-missing'] ?? '', /requires absent/);
    assert.match(reasons.dup ?? '', /common_alpha is already published by good/);
    assert.match(reasons.future ?? '', /needs kernel \^2/);
    assert.match(reasons.badname ?? '', /tools\.0\.name/);
    assert.match(reasons.wrongid ?? '', /declares id other/);
    assert.equal(reasons.tampered, 'modified: index.ts');
    assert.ok(registry.tools.has('common_alpha'));
  });

  it('caret ranges', () => {
    assert.ok(satisfiesCaret('1.0.0', '^1'));
    assert.ok(satisfiesCaret('1.4.2', '^1.3'));
    assert.ok(!satisfiesCaret('1.2.0', '^1.3'));
    assert.ok(!satisfiesCaret('2.0.0', '^1'));
  });
});
