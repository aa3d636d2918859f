import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { exportDefinitions } from '../../kernel/plugins/definitions.ts';
import { loadShippedPlugins } from '../helpers/shipped-plugins.ts';

// Every published tool's definition is committed under test/__toolsnaps__/, so that a change to the
// public surface shows in review. After an intended change: UPDATE_TOOLSNAPS=1 npm run test:unit -- test/plugins
const DIR = join(import.meta.dirname, '..', '__toolsnaps__');
const UPDATE = process.env.UPDATE_TOOLSNAPS === '1';

describe('tool definition snapshots', () => {
  it('every published tool matches its committed snapshot, and every snapshot has its tool', async () => {
    const { tools } = exportDefinitions(await loadShippedPlugins());
    if (UPDATE) mkdirSync(DIR, { recursive: true });
    const seen = new Set<string>();
    for (const t of tools) {
      const file = join(DIR, `${t.name}.json`);
      const text = `${JSON.stringify(t, null, 2)}\n`;
      seen.add(`${t.name}.json`);
      if (UPDATE) writeFileSync(file, text);
      assert.ok(existsSync(file), `${t.name} has no snapshot (run with UPDATE_TOOLSNAPS=1 after review)`);
      assert.equal(text, readFileSync(file, 'utf8'), `${t.name} changed: review, then update its snapshot`);
    }
    const stale = readdirSync(DIR).filter((f) => f.endsWith('.json') && !seen.has(f));
    assert.deepEqual(stale, [], 'snapshots of tools that no longer exist');
  });

  it('every tool declares all four annotations, an access rule and a service, and a name of at most 64 characters', async () => {
    const { tools } = exportDefinitions(await loadShippedPlugins());
    for (const t of tools) {
      assert.deepEqual(
        Object.keys(t.annotations).sort(),
        ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint'],
        t.name,
      );
      assert.match(t.name, /^[a-z0-9_]{1,64}$/);
      assert.match(
        t.access,
        /^(minProfile:(auditor|operator|admin)|allowlist:(axl|ris|ssh|cupi|serviceability))$/,
      );
      assert.equal(t.inputSchema.type, 'object', t.name);
    }
  });
});
