import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcrypt';
import { decodeJwt } from 'jose';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { startTestKernel } from '../../helpers/kernel.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { authRecords, basicAuth, clientFiles, freePort, getStatus, postForm } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('client synchronisation (startup step 7)', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  // One port for every restart: the issuer, and so each token's iss, includes it.
  let FAST: Record<string, string> = {};
  before(async () => {
    FAST = { AUTH_BCRYPT_COST: '4', SERVER_PORT: String(await freePort()) };
  });
  const dir = (name: string, ...rest: string[]) => join(state.dir, 'clients', name, ...rest);

  it('creates each client with a secret shown once, a bcrypt hash (default cost 12) and a startup token', async () => {
    const k = await startTestKernel({
      stateDir: state.dir,
      env: {
        SERVER_PORT: FAST.SERVER_PORT as string,
        AUTH_CLIENTS: 'noc-agent:operator:cucm+imp+cuc,auditor1:auditor:cucm',
      },
    });
    try {
      const step = k.kernel.steps.find((s) => s.step === 7);
      assert.equal(step?.outcome, 'ok');
      const { created, kept, purged } = step?.detail ?? {};
      assert.deepEqual(
        { created, kept, purged },
        { created: ['noc-agent', 'auditor1'], kept: [], purged: [] },
      );

      const { token, secret } = clientFiles(state.dir, 'noc-agent');
      assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
      for (const f of ['secrets/.client_secret', 'secrets/.token', 'secrets/registration.json'])
        assert.equal(statSync(dir('noc-agent', f)).mode & 0o777, 0o600, `${f} is 0600`);
      assert.equal(statSync(dir('noc-agent')).mode & 0o777, 0o700);
      const reg = JSON.parse(readFileSync(dir('noc-agent', 'secrets/registration.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      assert.match(String(reg.client_secret_hash), /^\$2b\$12\$/, 'hashed with the production cost');
      assert.ok(await bcrypt.compare(secret, String(reg.client_secret_hash)));
      assert.ok(!readFileSync(dir('noc-agent', 'secrets/registration.json'), 'utf8').includes(secret));
      assert.ok(existsSync(dir('noc-agent', 'client.json')), 'an editable client.json template is written');

      const claims = decodeJwt(token);
      assert.equal(claims.sub, 'noc-agent');
      assert.equal(claims.client_id, 'noc-agent');
      assert.ok((claims.exp ?? 0) - (claims.iat ?? 0) === 30 * 86_400, 'the startup token lives 30 days');

      const status = await getStatus(k, token);
      assert.equal(status.status, 200);
      assert.deepEqual(status.body.clients, { active: 2 });
      const startup = k.auditRecords().find((r) => r.status === 'STARTUP_COMPLETE');
      assert.equal(startup?.client_count, 2);
      // The secret itself is in no log.
      assert.ok(!readFileSync(join(state.dir, 'logs/audit.log'), 'utf8').includes(secret));
      assert.ok(!readFileSync(join(state.dir, 'logs/app.log'), 'utf8').includes(secret));
      assert.ok(!readFileSync(join(state.dir, 'logs/app.log'), 'utf8').includes(token));
    } finally {
      await k.stop();
    }
  });

  it('keeps secrets and the still-valid startup token across restarts', async () => {
    const before = clientFiles(state.dir, 'noc-agent');
    const hashBefore = readFileSync(dir('noc-agent', 'secrets/registration.json'), 'utf8');
    const k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { ...FAST, AUTH_CLIENTS: 'noc-agent:operator:cucm+imp+cuc,auditor1:auditor:cucm' },
    });
    try {
      const { created, kept, purged } = k.kernel.steps.find((s) => s.step === 7)?.detail ?? {};
      assert.deepEqual(
        { created, kept, purged },
        { created: [], kept: ['noc-agent', 'auditor1'], purged: [] },
      );
      const after = clientFiles(state.dir, 'noc-agent');
      assert.equal(after.secret, before.secret);
      assert.equal(
        JSON.parse(readFileSync(dir('noc-agent', 'secrets/registration.json'), 'utf8')).client_secret_hash,
        JSON.parse(hashBefore).client_secret_hash,
      );
      // Replaced only near expiry, after a key rotation or when revoked (startup-tokens.test.ts).
      assert.equal(after.token, before.token);
      assert.equal((await getStatus(k, after.token)).status, 200);
    } finally {
      await k.stop();
    }
  });

  it('purges a client removed from AUTH_CLIENTS and revokes all its tokens, even if the name returns', async () => {
    let k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { ...FAST, AUTH_CLIENTS: 'noc-agent:operator:cucm+imp+cuc,auditor1:auditor:cucm' },
    });
    const { token, secret } = clientFiles(state.dir, 'auditor1');
    const issued = await postForm(
      k,
      '/token',
      { grant_type: 'client_credentials' },
      { authorization: basicAuth('auditor1', secret) },
    );
    const oauthToken = ((await issued.json()) as { access_token: string }).access_token;
    assert.equal((await getStatus(k, oauthToken)).status, 200);
    await k.stop();

    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { ...FAST, AUTH_CLIENTS: 'noc-agent:operator:cucm' },
    });
    try {
      assert.deepEqual(k.kernel.steps.find((s) => s.step === 7)?.detail?.purged, ['auditor1']);
      assert.ok(!existsSync(dir('auditor1')), 'the directory is removed');
      const purge = authRecords(k, 'TOKEN_REVOKED').find((r) => r.reason === 'client_removed');
      assert.equal(purge?.client, 'auditor1');
      assert.ok(
        Array.isArray(purge?.jti) && (purge.jti as string[]).includes(String(decodeJwt(oauthToken).jti)),
      );
      assert.equal(
        k.auditRecords().find((r) => r.status === 'STARTUP_COMPLETE' && r.client_count === 1)?.event,
        'SERVER',
      );
    } finally {
      await k.stop();
    }

    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { ...FAST, AUTH_CLIENTS: 'noc-agent:operator:cucm,auditor1:auditor:cucm' },
    });
    try {
      assert.notEqual(
        clientFiles(state.dir, 'auditor1').secret,
        secret,
        'a re-created client gets a new secret',
      );
      for (const t of [token, oauthToken]) {
        const r = await getStatus(k, t);
        assert.equal(r.status, 401);
        assert.equal(r.body.error, 'AUTH_REVOKED');
      }
      assert.equal((await getStatus(k, clientFiles(state.dir, 'auditor1').token)).status, 200);
    } finally {
      await k.stop();
    }
  });

  it('merges redirect URIs from AUTH_CLIENTS and client.json', async () => {
    writeFileSync(
      dir('noc-agent', 'client.json'),
      JSON.stringify({ redirect_uris: ['https://agent.example.com/cb'] }),
    );
    const k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { ...FAST, AUTH_CLIENTS: 'noc-agent:operator:cucm:http://127.0.0.1/callback' },
    });
    try {
      assert.deepEqual(k.kernel.runtime.clients.get('noc-agent')?.redirectUris, [
        'http://127.0.0.1/callback',
        'https://agent.example.com/cb',
      ]);
      assert.deepEqual(k.kernel.runtime.clients.get('noc-agent')?.products, ['cucm']);
    } finally {
      await k.stop();
    }
  });

  it('refuses to start on a bad entry: ConfigError naming it, exit code 2', () => {
    const dir = tempStateDir();
    try {
      seedServerKeys(dir.dir);
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'kernel/main.ts')], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          STATE_DIR: dir.dir,
          SERVER_PORT: '0',
          LOGGING_CONSOLE_ENABLED: '0',
          AUTH_CLIENTS: 'ok:operator:cucm,bad:superuser:cucm',
        },
      });
      assert.equal(run.status, 2, run.stderr);
      assert.match(
        run.stderr,
        /^ConfigError: AUTH_CLIENTS entry 2 \("bad:superuser:cucm"\): unknown profile "superuser"/m,
      );
      assert.ok(
        !existsSync(join(dir.dir, 'clients', 'ok')),
        'no client is created from a list with a bad entry',
      );
    } finally {
      dir.cleanup();
    }
  });
});
