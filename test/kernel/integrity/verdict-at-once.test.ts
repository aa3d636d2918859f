// The integrity verdict is known everywhere as soon as a check ends: startup step 4 logs it (ok, warn,
// failed: never "ok" for a failed check), the ucmcp_watchdog_status{watchdog="integrity"} gauge and
// /status show it at once (not "not yet run" until the 24-hour timer), and infra_server_status with
// check_integrity reports one verdict. A development checkout is unsigned: warn mode gives `warn`,
// enforce mode `failed`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { clientFiles, getStatus } from '../../helpers/oauth.ts';

async function gauge(k: Pick<TestKernel, 'url' | 'fetch'>): Promise<number> {
  const text = await (await k.fetch(`${k.url}/metrics`)).text();
  const m = /^ucmcp_watchdog_status\{watchdog="integrity"\} (-?\d+)$/m.exec(text);
  assert.ok(m, 'the integrity gauge is exposed');
  return Number(m[1]);
}

const step4 = (stateDir: string): Record<string, unknown> | undefined =>
  readFileSync(join(stateDir, 'logs', 'app.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((r) => (r.startup as { step?: number } | undefined)?.step === 4);

for (const [mode, verdict, level] of [
  ['warn', 'warn', 40],
  ['enforce', 'failed', 50],
] as const) {
  describe(`an unsigned tree in ${mode} mode`, () => {
    let k: TestKernel;
    let c: ConnectedClient;
    before(async () => {
      k = await startTestKernel({
        env: { INTEGRITY_MODE: mode, AUTH_CLIENTS: 'amy:auditor:cucm', AUTH_BCRYPT_COST: '4' },
      });
      c = await connectMcp(k, startupToken(k.stateDir, 'amy'));
    });
    after(async () => {
      await c.close();
      await k.stop();
    });

    it(`logs startup step 4 as ${verdict}, and the gauge and /status say so at once`, async () => {
      const s = k.kernel.steps.find((x) => x.step === 4);
      assert.equal(s?.outcome, verdict);
      const line = step4(k.stateDir);
      assert.equal(line?.msg, `startup step 4 integrity: ${verdict}`);
      assert.equal(line?.level, level);

      assert.equal(await gauge(k), 0, 'the last check did not pass: 0, not -1 (not yet run)');
      const { body } = await getStatus(k, clientFiles(k.stateDir, 'amy').token);
      const integrity = body.integrity as Record<string, unknown>;
      assert.equal(integrity.status, 'unsigned');
      assert.equal(integrity.verdict, verdict);
      assert.equal(integrity.mode, mode);
      assert.match(String(integrity.checked_at), /^\d{4}-/);
      const dog = k.kernel.runtime.watchdogs.states().find((w) => w.name === 'integrity');
      assert.equal(dog?.lastOk, false);
      assert.match(String(dog?.lastError), /unsigned/);
    });

    // In enforce mode an unsigned tree loads no bundle, infra included: the signed install
    // (running-server.test.ts) covers that mode.
    if (mode === 'warn')
      it('infra_server_status with check_integrity reports one verdict, from the check it ran', async () => {
        const before = k.kernel.runtime.integrity.last()?.checkedAt;
        await new Promise((r) => setTimeout(r, 5));
        const r = await c.call('infra_server_status', { check_integrity: true });
        const st = r.structuredContent as {
          integrity: { status: string; verdict: string; checkedAt: string; files: unknown[] };
          security: { integrity: { status: string; verdict: string; checked_at: string } };
        };
        assert.notEqual(st.integrity.checkedAt, before, 'a new check ran');
        assert.equal(st.security.integrity.checked_at, st.integrity.checkedAt, 'the same check');
        assert.equal(st.security.integrity.status, st.integrity.status);
        assert.equal(st.security.integrity.verdict, verdict);
        assert.equal(st.integrity.verdict, verdict);
        assert.ok(Array.isArray(st.integrity.files));
      });
  });
}
