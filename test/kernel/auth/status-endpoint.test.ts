import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PACKAGE_VERSION } from '../../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { authRecords, clientFiles, getStatus } from '../../helpers/oauth.ts';

describe('GET /status', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel({
      env: {
        AUTH_CLIENTS: 'noc-agent:operator:cucm,auditor1:auditor:cucm+cuc',
        AUTH_BCRYPT_COST: '4',
        BACKUP_ENABLED: '0',
      },
    });
  });
  after(async () => {
    await k.stop();
  });

  it('reports every section with its real current value, to any client', async () => {
    for (const name of ['noc-agent', 'auditor1']) {
      const { status, body } = await getStatus(k, clientFiles(k.stateDir, name).token);
      assert.equal(status, 200);
      const server = body.server as Record<string, unknown>;
      assert.equal(server.version, PACKAGE_VERSION);
      assert.equal(server.name, 'uc-mcp-server');
      assert.ok(Number.isInteger(server.uptime_seconds) && (server.uptime_seconds as number) >= 0);
      assert.equal(server.started_at, k.kernel.runtime.startedAt.toISOString());
      assert.deepEqual(body.license, {
        state: 'INVALID',
        tier: null,
        expires_at: null,
        products: [],
        reason: k.kernel.runtime.license.reason,
      });
      assert.deepEqual(body.backup, {
        last: null,
        message: 'no backup yet',
        status: 'disabled',
        interval_hours: 168,
        retention_count: 10,
        sftp_upload: false,
      });
      assert.deepEqual(body.security, { blacklisted_ips: 0 });
      assert.deepEqual(body.modules, []);
      assert.deepEqual(body.clients, { active: 2 });
      assert.equal(authRecords(k, 'AUTH_OK').at(-1)?.client, name);
    }
  });

  it('follows the runtime as later parts fill it in', async () => {
    const rt = k.kernel.runtime;
    rt.lastBackup = {
      timestamp: '2026-01-02T03:04:05.000Z',
      filename: 'backup_202601_host_20260102_030405.tar.gz.enc',
    };
    rt.modules = ['cucm'];
    rt.license = {
      state: 'VALID',
      tier: 'enterprise',
      expiresAt: '2027-01-01T00:00:00.000Z',
      products: ['cucm'],
      reason: 'ok',
    };
    const { body } = await getStatus(k, clientFiles(k.stateDir, 'noc-agent').token);
    assert.deepEqual((body.backup as { last: unknown }).last, rt.lastBackup);
    assert.deepEqual(body.modules, ['cucm']);
    assert.equal((body.license as Record<string, unknown>).tier, 'enterprise');
  });

  it('requires a bearer token and is never cached', async () => {
    const res = await k.fetch(`${k.url}/status`);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: string }).error, 'AUTH_FAILED');
    const ok = await k.fetch(`${k.url}/status`, {
      headers: { authorization: `Bearer ${clientFiles(k.stateDir, 'auditor1').token}` },
    });
    assert.equal(ok.headers.get('cache-control'), 'no-store');
  });
});
