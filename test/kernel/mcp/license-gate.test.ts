import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

const DAY = 86_400_000;

describe('license gate through MCP, with a controllable clock', () => {
  let now = Date.now();
  let k: TestKernel;
  let c: ConnectedClient;
  let changes = 0;
  before(async () => {
    k = await startTestKernel({
      fixturePlugins: true,
      clock: () => now,
      license: { products: ['cucm', 'imp', 'cuc'], expiresInDays: 1, graceDays: 2, now },
      env: { AUTH_CLIENTS: 'ada:admin:cucm+imp+cuc,ian:admin:imp', AUTH_BCRYPT_COST: '4' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'ada'));
    c.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
  });
  after(async () => {
    await c.close();
    await k.stop();
  });

  const toolNames = async () => (await c.client.listTools()).tools.map((t) => t.name);
  const licenseEvents = () =>
    k.auditRecords().filter((r) => r.event === 'SERVER' && r.status === 'LICENSE_STATE_CHANGE');
  const tick = async () => {
    await k.kernel.runtime.watchdogs.runNow('license');
  };
  const waitFor = async (cond: () => boolean) => {
    for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
  };

  it('VALID: product tools are listed and callable; the startup evaluation was audited', async () => {
    assert.equal(k.kernel.runtime.license.state, 'VALID');
    assert.ok((await toolNames()).includes('cucm_test_echo'));
    const r = await c.call('cucm_test_echo', { text: 'hello', host: 'cucm-pub' });
    assert.deepEqual(r.structuredContent, { echo: 'hello' });
    assert.equal(licenseEvents().at(-1)?.new, 'VALID');
  });

  it('a product outside the client scope is refused (DENIED) even while licensed', async () => {
    const ian = await connectMcp(k, startupToken(k.stateDir, 'ian'));
    const r = await ian.call('cucm_test_echo', { text: 'x' });
    assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
    assert.match(String(r.structuredContent?.message), /outside the product scope/);
    const rec = k
      .auditRecords()
      .filter((x) => x.event === 'ACTIONS' && x.client === 'ian')
      .at(-1);
    assert.equal(rec?.result, 'DENIED');
    await ian.close();
  });

  it('past expiry: GRACE, tools still there, change audited with previous, new and expiry', async () => {
    now += 1.5 * DAY;
    await tick();
    assert.equal(k.kernel.runtime.license.state, 'GRACE');
    const ev = licenseEvents().at(-1);
    assert.deepEqual([ev?.previous, ev?.new], ['VALID', 'GRACE']);
    assert.ok(ev?.expiry);
    assert.ok((await toolNames()).includes('cucm_test_echo'));
    assert.equal((await c.call('cucm_test_echo', { text: 'g' })).isError, undefined);
  });

  it('past the grace period: EXPIRED, product tools disappear with tools/list_changed, calls get LicenseError', async () => {
    const before = changes;
    now += 2 * DAY;
    await tick();
    assert.equal(k.kernel.runtime.license.state, 'EXPIRED');
    const ev = licenseEvents().at(-1);
    assert.deepEqual([ev?.previous, ev?.new], ['GRACE', 'EXPIRED']);
    await waitFor(() => changes > before);
    assert.ok(changes > before, 'the client received notifications/tools/list_changed');
    const names = await toolNames();
    assert.ok(!names.some((n) => n.startsWith('cucm_')));
    assert.ok(names.includes('infra_health'), 'infra stays');
    const r = await c.call('cucm_test_echo', { text: 'x' });
    assert.equal(r.structuredContent?.error, 'LicenseError');
    const health = await c.call('infra_health');
    assert.equal((health.structuredContent as { license: string }).license, 'EXPIRED');
  });

  it('a renewed license file brings the tools back without a restart', async () => {
    const before = changes;
    const { writeTestLicense } = await import('../../helpers/license.ts');
    await writeTestLicense(k.stateDir, { products: ['cucm'], expiresInDays: 30, now });
    for (let i = 0; i < 100 && k.kernel.runtime.license.state !== 'VALID'; i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(k.kernel.runtime.license.state, 'VALID', 'the file watcher re-evaluated within 5 s');
    await waitFor(() => changes > before);
    assert.ok((await toolNames()).includes('cucm_test_echo'));
  });
});
