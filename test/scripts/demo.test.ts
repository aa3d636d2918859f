import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { pinnedFetch } from '../helpers/https-client.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { tempStateDir } from '../helpers/state-dir.ts';
import type { TestKernel } from '../helpers/kernel.ts';

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

// The README's first Quick start command, as a user runs it (minus `npm install`).
describe('npm run demo', () => {
  const tmp = tempStateDir('ucmcp-demo-');
  after(() => tmp.cleanup());

  it('starts the lab and a signed, licensed server; a demo client connects; Ctrl-C stops everything', async () => {
    const state = join(tmp.dir, 'state');
    const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'scripts/demo.ts')], {
      env: { ...process.env, DEMO_DIR: tmp.dir, STATE_DIR: state, SERVER_PORT: '0', AUTH_BCRYPT_COST: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    for (let i = 0; i < 600 && !out.includes('demo is running'); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /demo is running/, out);
    assert.match(out, /\[5\/5\]/, 'progress is shown step by step');

    const demo = JSON.parse(readFileSync(join(state, 'demo.json'), 'utf8')) as {
      server: { url: string; tls_certificate: string };
      clients: { name: string; token_file: string }[];
      credentials_stored: number;
      lab: { nodes: { product: string; ports: Record<string, number> }[] };
    };
    assert.deepEqual(
      demo.clients.map((c) => c.name),
      ['demo-admin', 'demo-operator', 'demo-auditor'],
    );
    assert.ok(demo.credentials_stored >= 3 * 7, 'lab credentials stored for every demo client');
    const certPem = readFileSync(demo.server.tls_certificate, 'utf8');
    const k = {
      url: demo.server.url,
      certPem,
      fetch: pinnedFetch(certPem),
      stateDir: state,
    } as unknown as TestKernel;
    const token = readFileSync(demo.clients[2]?.token_file as string, 'utf8').trim();
    const c = await connectMcp(k, token);
    const health = await c.call('infra_health');
    assert.equal((health.structuredContent as { license: string }).license, 'VALID');
    const status = await c.call('infra_server_status', { check_integrity: true });
    assert.equal((status.structuredContent as { integrity: { status: string } }).integrity.status, 'valid');
    // The lab is managed from the first call: credentials, host keys and AXL schema are in place.
    const check = await c.call('cucm_check_connectivity', { host: 'cucm-pub' });
    const services = (
      check.structuredContent as { services: Record<string, { ok: boolean; reason?: string }> }
    ).services;
    for (const [name, v] of Object.entries(services)) assert.equal(v.ok, true, `${name}: ${v.reason}`);
    const phone = await c.call('cucm_axl_call', {
      host: 'cucm-pub',
      operation: 'getPhone',
      args: { name: 'SEP0A1B2C3D4E01' },
    });
    assert.equal(phone.isError, undefined, JSON.stringify(phone.structuredContent));
    const ris = await c.call('cucm_risport_query', { host: 'cucm-pub' });
    assert.ok(
      (ris.structuredContent as { devices_returned: number }).devices_returned >= 3,
      JSON.stringify(ris),
    );
    const cupi = await c.call('cuc_get_version', { host: 'cuc-pub' });
    assert.equal(cupi.isError, undefined, JSON.stringify(cupi.structuredContent));
    await c.close();

    child.kill('SIGINT');
    assert.equal(await exited, 0);
    const ports = demo.lab.nodes.flatMap((n) => Object.values(n.ports));
    ports.push(Number(new URL(demo.server.url).port));
    for (const p of ports) assert.equal(await portOpen(p), false, `port ${p} closed after Ctrl-C`);
  });
});
