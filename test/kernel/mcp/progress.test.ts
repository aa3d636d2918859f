import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';

describe('progress and cancellation', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({
      fixturePlugins: true,
      env: { AUTH_CLIENTS: 'alice:admin:cucm', AUTH_BCRYPT_COST: '4' },
    });
  });
  after(async () => {
    await k.stop();
  });

  it('long calls send progress notifications when the client asks for them', async () => {
    const c = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    const seen: number[] = [];
    const r = await c.client.callTool({ name: 'common_test_slow', arguments: { ms: 50 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    assert.equal(r.isError, undefined);
    assert.deepEqual(seen, [1, 2]);
    await c.close();
  });

  it('a cancelled call stops its handler and is audited as ERROR', async () => {
    const c = await connectMcp(k, startupToken(k.stateDir, 'alice'));
    const ac = new AbortController();
    const pending = c.client.callTool({ name: 'common_test_slow', arguments: { ms: 5000 } }, undefined, {
      signal: ac.signal,
    });
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    ac.abort();
    await assert.rejects(pending);
    let rec;
    for (let i = 0; i < 50 && !rec; i++) {
      rec = k.auditRecords().find((x) => x.tool_name === 'common_test_slow' && x.result === 'ERROR');
      if (!rec) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(rec, 'the cancelled call was audited');
    assert.ok(Date.now() - t0 < 2000, 'the handler stopped promptly');
    await c.close();
  });
});
