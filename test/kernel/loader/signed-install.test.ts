// A signed install started as `npm start` starts it (on kernel/loader) in INTEGRITY_MODE=enforce: a
// tampered transpile cache entry is never run, and a changed source file is caught by the integrity
// check as it was before there was a cache (the check hashes the sources; the cache never hides them).
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seedServerKeys } from '../../helpers/keys.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import {
  freePort,
  serverFetch,
  signedInstall,
  spawnServer,
  type SignedInstall,
} from '../../helpers/server-process.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

interface Integrity {
  status: string;
  files: { path: string; state: string }[];
  bundles: Record<string, { status: string }>;
}

const EVIL = 'throw new Error("TAMPERED cache entry ran");';

describe('the server loader on a signed install (enforce)', { timeout: 300_000 }, () => {
  const tmp = tempStateDir('ucmcp-loader-install-');
  const state = join(tmp.dir, 'state');
  const cacheDir = join(state, 'cache', 'transpiled');
  let install: SignedInstall;
  let port: number;

  /** Starts the install, returns its integrity report and tool names, stops it. */
  const startOnce = async (): Promise<{ integrity: Integrity; tools: string[] }> => {
    const server = spawnServer({
      stateDir: state,
      port,
      installDir: install.dir,
      env: { AUTH_CLIENTS: 'ops:admin:cucm+imp+cuc' },
    });
    try {
      const url = await server.ready;
      const fetch = serverFetch(state);
      const c = await connectMcp({ url, fetch }, startupToken(state, 'ops'));
      try {
        const status = await c.call('infra_server_status', { check_integrity: true });
        const integrity = (status.structuredContent as { integrity: Integrity }).integrity;
        const tools = (await c.client.listTools()).tools.map((t) => t.name);
        return { integrity, tools };
      } finally {
        await c.close();
        await fetch.close();
      }
    } finally {
      await server.stop();
    }
  };
  const entries = (): string[] => readdirSync(cacheDir).filter((n) => !n.endsWith('.tmp'));

  before(async () => {
    install = await signedInstall();
    port = await freePort();
    seedServerKeys(state);
    await install.license(state);
  });
  after(() => {
    install?.cleanup();
    tmp.cleanup();
  });

  it('a warm start runs from the cache; tampered entries are refused and written again', async () => {
    const first = await startOnce();
    assert.equal(first.integrity.status, 'valid');
    assert.ok(first.tools.includes('cucm_axl_call'));
    const cached = entries();
    assert.ok(cached.length > 100, `${cached.length} entries`);

    // Every entry's code replaced, its HMAC line kept: had any of them run, the start would fail.
    for (const name of cached) {
      const file = join(cacheDir, name);
      const head = readFileSync(file, 'utf8').split('\n')[0] as string;
      writeFileSync(file, `${head}\n${EVIL}`);
    }
    const second = await startOnce();
    assert.equal(second.integrity.status, 'valid');
    assert.deepEqual(second.tools.sort(), first.tools.sort());
    // Each module the start loaded got its entry written again from its source; the entry of a module
    // only loaded later (by a timer, by shutdown) keeps the bad code, unused until it fails its HMAC.
    const rewritten = entries().filter((n) => !readFileSync(join(cacheDir, n), 'utf8').includes('TAMPERED'));
    assert.ok(rewritten.length > 100, `${rewritten.length} of ${cached.length} rewritten`);
  });

  it('a changed source file is still reported by the integrity check and its bundle refused', async () => {
    const changed = 'plugins/cucm/index.ts';
    appendFileSync(join(install.dir, changed), '\n// changed after signing\n');
    const r = await startOnce();
    assert.equal(r.integrity.status, 'modified');
    assert.deepEqual(
      r.integrity.files.map((f) => [f.path, f.state]),
      [[changed, 'modified']],
    );
    assert.equal(r.integrity.bundles.cucm?.status, 'modified');
    assert.equal(r.integrity.bundles.infra?.status, 'valid');
    assert.ok(!r.tools.some((t) => t.startsWith('cucm_')), 'no CUCM tool: its bundle was not loaded');
    assert.ok(r.tools.includes('imp_axl_call'));
  });
});
