import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runScript } from '../kernel/integrity/fixture.ts';
import { startTestKernel, type TestKernel } from '../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../helpers/mcp-client.ts';

const SNAPSHOTS = join(import.meta.dirname, '..', '__toolsnaps__');

interface Export {
  server: { name: string; version: string };
  tools: { name: string }[];
  prompts: { name: string; title: string; description: string; arguments: { name: string }[] }[];
  resources: { uri: string; name: string; mimeType: string }[];
  resourceTemplates: { uriTemplate: string; name: string; mimeType: string }[];
}

describe('scripts/export_mcp_definitions.ts', () => {
  let exported: Export;
  before(async () => {
    // warn: a development checkout is not signed; the integrity gate is tested with the loader.
    const r = await runScript('export_mcp_definitions.ts', ['--mode', 'warn']);
    assert.equal(r.code, 0, r.stderr);
    exported = JSON.parse(r.stdout) as Export;
  });

  it('exports every tool exactly as its committed snapshot, and a tool for every snapshot', () => {
    for (const t of exported.tools) {
      const file = join(SNAPSHOTS, `${t.name}.json`);
      assert.equal(`${JSON.stringify(t, null, 2)}\n`, readFileSync(file, 'utf8'), t.name);
    }
    const snapshots = readdirSync(SNAPSHOTS)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
    assert.deepEqual(exported.tools.map((t) => t.name).sort(), snapshots);
  });

  it('exports the prompts with their arguments and the resources, sorted, with the server version', () => {
    assert.equal(exported.server.name, 'uc-mcp-server');
    assert.match(exported.server.version, /^\d+\.\d+\.\d+/);
    assert.ok(exported.prompts.length > 0);
    for (const p of exported.prompts) {
      assert.ok(p.title && p.description, p.name);
      assert.ok(Array.isArray(p.arguments), p.name);
    }
    assert.ok(exported.resources.length > 0);
    for (const r of exported.resources) assert.match(r.uri, /^[a-z]+:\/\//, r.name);
    const uris = exported.resources.map((r) => r.uri);
    assert.deepEqual(
      uris,
      [...uris].sort((a, b) => a.localeCompare(b)),
    );
  });

  describe('the resources a running server serves', () => {
    let k: TestKernel;
    let c: ConnectedClient;
    before(async () => {
      k = await startTestKernel({
        license: { products: ['cucm', 'imp', 'cuc'] },
        // An admin sees every template: an auditor is not shown the collected-log files it may not read.
        env: { AUTH_CLIENTS: 'amy:admin:cucm+imp+cuc', AUTH_BCRYPT_COST: '4' },
      });
      c = await connectMcp(k, startupToken(k.stateDir, 'amy'));
    });
    after(async () => {
      await c.close();
      await k.stop();
    });

    it('are all exported: every resources/list entry (template members as concrete resources) and every template', async () => {
      const served = (await c.client.listResources()).resources.map((r) => r.uri).sort();
      const templates = (await c.client.listResourceTemplates()).resourceTemplates
        .map((r) => r.uriTemplate)
        .sort();
      assert.ok(
        served.length > templates.length,
        `${served.length} resources, ${templates.length} templates`,
      );
      assert.deepEqual(exported.resources.map((r) => r.uri).sort(), served);
      assert.deepEqual(exported.resourceTemplates.map((r) => r.uriTemplate).sort(), templates);
      for (const r of exported.resources) assert.doesNotMatch(r.uri, /[{}]/, 'no template among resources');
    });
  });

  it('--output writes the same JSON to a file; a bad mode or a stray argument is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ucmcp-export-'));
    try {
      const file = join(dir, 'defs.json');
      const r = await runScript('export_mcp_definitions.ts', ['--mode', 'warn', '--output', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), exported);
      assert.match(r.stderr, new RegExp(`${exported.tools.length} tools`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal((await runScript('export_mcp_definitions.ts', ['--mode', 'lax'])).code, 2);
    assert.equal((await runScript('export_mcp_definitions.ts', ['extra'])).code, 2);
    const help = await runScript('export_mcp_definitions.ts', ['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--output <value>/);
    assert.match(help.stdout, /Exit codes/);
  });
});
