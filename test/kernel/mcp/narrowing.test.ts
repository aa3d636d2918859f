import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, httpRefusal, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('per-client narrowing from clients/<name>/client.json, enforced and reported', () => {
  const state = tempStateDir();
  let k: TestKernel;
  let c: ConnectedClient;
  before(async () => {
    seedServerKeys(state.dir);
    mkdirSync(join(state.dir, 'clients', 'nina'), { recursive: true });
    writeFileSync(
      join(state.dir, 'clients', 'nina', 'client.json'),
      JSON.stringify({
        redirect_uris: [],
        allowlists: { axl: { allow: ['get*'] } },
        rateLimits: { cucm: { axl: { limit: 2, windowSeconds: 60 } } },
      }),
    );
    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      fixturePlugins: true,
      license: { products: ['cucm'] },
      env: { AUTH_CLIENTS: 'nina:admin:cucm', AUTH_BCRYPT_COST: '4' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'nina'));
  });
  after(async () => {
    await c.close();
    await k.stop();
    state.cleanup();
  });

  it('an operation the admin profile allows but the client narrowed away is DENIED', async () => {
    const r = await c.call('cucm_test_axl', { operation: 'addPhone', host: 'cucm-pub' });
    assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
    const ok = await c.call('cucm_test_axl', { operation: 'getPhone', host: 'cucm-pub' });
    assert.equal(ok.isError, undefined);
  });

  it('the narrowed rate limit applies (the admin profile alone would allow 120/min)', async () => {
    const second = await c.call('cucm_test_axl', { operation: 'getLine', host: 'cucm-pub' });
    assert.equal(second.isError, undefined);
    const third = await c.call('cucm_test_axl', { operation: 'getLine', host: 'cucm-pub' }).then(
      () => null,
      (err: unknown) => httpRefusal(err),
    );
    assert.equal(third?.error, 'RATE_LIMITED');
  });

  it('infra_get_my_permissions reports the narrowing and the effective limit', async () => {
    const r = await c.call('infra_get_my_permissions');
    const m = r.structuredContent as {
      allowlistNarrowing: { axl?: { allow: string[] } };
      rateLimits: { cucm: { axl: { limit: number; remaining: number } } };
    };
    assert.deepEqual(m.allowlistNarrowing.axl?.allow, ['get*']);
    assert.equal(m.rateLimits.cucm.axl.limit, 2);
    assert.equal(m.rateLimits.cucm.axl.remaining, 0);
  });
});
