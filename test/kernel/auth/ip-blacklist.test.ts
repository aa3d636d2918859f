import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { configSchema } from '../../../kernel/config/schema.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { authRecords, basicAuth, bearer, clientFiles, freePort, postForm } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const BAD = bearer('not-a-token');

describe('IP blacklist', () => {
  it('defaults to 10 failures in 5 minutes, listed for 15 minutes', () => {
    const d = configSchema.parse({});
    assert.deepEqual(
      [d.AUTH_BLACKLIST_THRESHOLD, d.AUTH_BLACKLIST_WINDOW_SECONDS, d.AUTH_BLACKLIST_DURATION_SECONDS],
      [10, 300, 900],
    );
  });

  describe('brute force from one address', () => {
    const state = tempStateDir();
    let env: Record<string, string>;
    let k: TestKernel;
    before(async () => {
      env = {
        SERVER_PORT: String(await freePort()),
        AUTH_CLIENTS: 'noc-agent:operator:cucm',
        AUTH_BCRYPT_COST: '4',
        AUTH_BLACKLIST_THRESHOLD: '4',
        AUTH_BLACKLIST_WINDOW_SECONDS: '60',
        AUTH_BLACKLIST_DURATION_SECONDS: '3',
      };
      k = await startTestKernel({ stateDir: state.dir, env });
    });
    after(async () => {
      await k.stop();
      state.cleanup();
    });

    it('ends in AUTH_BLOCKED with Retry-After; a restart keeps the block; expiry releases it, audited', async () => {
      const token = clientFiles(state.dir, 'noc-agent').token;
      // A request without credentials does not count; bad tokens and bad client secrets do.
      assert.equal((await k.fetch(`${k.url}/status`)).status, 401);
      for (let i = 0; i < 2; i++)
        assert.equal((await k.fetch(`${k.url}/status`, { headers: BAD })).status, 401);
      const wrongSecret = await postForm(
        k,
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth('noc-agent', 'guess') },
      );
      assert.equal(wrongSecret.status, 401);
      assert.equal(authRecords(k, 'IP_BLACKLISTED').length, 0);
      assert.equal(
        (await k.fetch(`${k.url}/status`, { headers: BAD })).status,
        401,
        'the failure that lists the IP',
      );
      const listed = authRecords(k, 'IP_BLACKLISTED');
      assert.equal(listed.length, 1);
      assert.equal(listed[0]?.ip, '127.0.0.1');
      assert.equal(listed[0]?.failures, 4);

      const blocked = await k.fetch(`${k.url}/status`, { headers: bearer(token) });
      assert.equal(blocked.status, 429, 'even a valid token is refused while listed');
      const retry = Number(blocked.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 3, `Retry-After ${retry}`);
      assert.equal(((await blocked.json()) as { error: string }).error, 'AUTH_BLOCKED');
      assert.equal(authRecords(k, 'AUTH_BLOCKED').at(-1)?.ip, '127.0.0.1');
      for (const res of [
        await postForm(
          k,
          '/token',
          { grant_type: 'client_credentials' },
          { authorization: basicAuth('noc-agent', 'x') },
        ),
        await postForm(k, '/authorize', { csrf: 'x' }),
        await postForm(k, '/revoke', { token }, bearer(token)),
      ])
        assert.equal(res.status, 429);

      const file = JSON.parse(readFileSync(join(state.dir, 'secrets/ip_blacklist.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.ok(file['127.0.0.1'], 'persisted');
      await k.stop();
      k = await startTestKernel({ stateDir: state.dir, seedKeys: false, env });
      const afterRestart = await k.fetch(`${k.url}/status`, {
        headers: bearer(clientFiles(state.dir, 'noc-agent').token),
      });
      assert.equal(afterRestart.status, 429, 'a restart keeps the block');

      await sleep(Number(afterRestart.headers.get('retry-after')) * 1000 + 100);
      const released = await k.fetch(`${k.url}/status`, {
        headers: bearer(clientFiles(state.dir, 'noc-agent').token),
      });
      assert.equal(released.status, 200);
      const rel = authRecords(k, 'IP_RELEASED');
      assert.equal(rel.length, 1);
      assert.equal(rel[0]?.ip, '127.0.0.1');
      assert.equal(rel[0]?.noticed_by, 'next_request');
      assert.deepEqual(JSON.parse(readFileSync(join(state.dir, 'secrets/ip_blacklist.json'), 'utf8')), {});
    });

    it('is released by the periodic sweep even if the address never returns', async () => {
      for (let i = 0; i < 4; i++) await k.fetch(`${k.url}/status`, { headers: BAD });
      assert.equal((await k.fetch(`${k.url}/status`, { headers: BAD })).status, 429);
      const statusCount = k.kernel.runtime.auth.blacklist.activeCount();
      assert.equal(statusCount, 1);
      await sleep(3100);
      await k.kernel.runtime.watchdogs.runNow('auth-housekeeping');
      const rel = authRecords(k, 'IP_RELEASED').at(-1);
      assert.equal(rel?.noticed_by, 'sweep');
      assert.equal(k.kernel.runtime.auth.blacklist.activeCount(), 0);
    });
  });

  describe('X-Forwarded-For', () => {
    const env = {
      AUTH_CLIENTS: 'noc-agent:operator:cucm',
      AUTH_BCRYPT_COST: '4',
      AUTH_BLACKLIST_THRESHOLD: '2',
    };

    it('is ignored without a trusted proxy: the failures count against the peer', async () => {
      const k = await startTestKernel({ env });
      try {
        for (let i = 0; i < 2; i++)
          await k.fetch(`${k.url}/status`, { headers: { ...BAD, 'x-forwarded-for': `198.51.100.${i}` } });
        assert.equal(authRecords(k, 'IP_BLACKLISTED')[0]?.ip, '127.0.0.1');
      } finally {
        await k.stop();
      }
    });

    it('names the client address behind a configured trusted proxy', async () => {
      const k = await startTestKernel({ env: { ...env, TRUSTED_PROXIES: '127.0.0.1' } });
      try {
        const token = clientFiles(k.stateDir, 'noc-agent').token;
        const xff = { 'x-forwarded-for': '203.0.113.7' };
        for (let i = 0; i < 2; i++) await k.fetch(`${k.url}/status`, { headers: { ...BAD, ...xff } });
        assert.equal(authRecords(k, 'IP_BLACKLISTED')[0]?.ip, '203.0.113.7');
        assert.equal(
          (await k.fetch(`${k.url}/status`, { headers: { ...bearer(token), ...xff } })).status,
          429,
        );
        assert.equal(
          (await k.fetch(`${k.url}/status`, { headers: bearer(token) })).status,
          200,
          'the proxy itself is not blocked',
        );
        const status = (await (await k.fetch(`${k.url}/status`, { headers: bearer(token) })).json()) as {
          security: { blacklisted_ips: number };
        };
        assert.equal(status.security.blacklisted_ips, 1);
      } finally {
        await k.stop();
      }
    });
  });
});
