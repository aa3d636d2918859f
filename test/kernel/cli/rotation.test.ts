import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { createBackup, type BackupResult } from '../../../kernel/backup/create-backup.ts';
import { command as restoreCommand } from '../../../kernel/cli/commands/backup-restore.ts';
import { command as rotateCommand } from '../../../kernel/cli/commands/rotate-rsa-keys.ts';
import { captureIo, type CapturedIo } from '../../helpers/cli-io.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { archiveDate, installRotatedPair, currentPrivateKey } from '../../../kernel/keys/rotate.ts';
import { ensureServerKeys } from '../../../kernel/keys/rsa-keys.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { cachedRsaKeyPair, seedServerKeys } from '../../helpers/keys.ts';
import { connectMcp } from '../../helpers/mcp-client.ts';
import {
  authRecords,
  basicAuth,
  bearer,
  clientFiles,
  codeFlow,
  freePort,
  getStatus,
  postForm,
} from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const REDIRECT = 'http://127.0.0.1/callback';

function testIo(env: NodeJS.ProcessEnv, cwd: string): CapturedIo {
  return captureIo(env, cwd, { answer: 'n' });
}

async function mcpStatus(k: TestKernel, token: string): Promise<number> {
  const res = await k.fetch(`${k.url}/mcp`, {
    method: 'POST',
    headers: {
      ...bearer(token),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('RSA key rotation drill', () => {
  const state = tempStateDir('ucmcp-rotation-');
  after(() => state.cleanup());
  const paths = statePaths(state.dir);
  const env = (): NodeJS.ProcessEnv => ({ STATE_DIR: state.dir, ENV_FILE: '' });

  it('rotate, restart: old tokens refused, new ones work, backups restore with the key of their time', async () => {
    const serverEnv = {
      // A fixed port: the issuer (and so every token's iss) must survive the restart.
      SERVER_PORT: String(await freePort()),
      AUTH_CLIENTS: `noc-agent:operator:cucm:${REDIRECT},auditor1:auditor:cucm`,
      AUTH_BCRYPT_COST: '4',
      BACKUP_ENABLED: '0',
    };

    // 1. Before: a running server, a startup token, an OAuth access + refresh token, a backup.
    let k = await startTestKernel({ stateDir: state.dir, env: serverEnv });
    const oldKid = k.kernel.runtime.keys.kid;
    const secret = clientFiles(state.dir, 'noc-agent').secret;
    const oldStartup = clientFiles(state.dir, 'noc-agent').token;
    const oauth = await codeFlow(k, { name: 'noc-agent', secret, redirectUri: REDIRECT });
    for (const t of [oldStartup, oauth.access_token]) assert.equal((await getStatus(k, t)).status, 200);
    const mcp = await connectMcp(k, oldStartup);
    await mcp.close();
    await k.stop();
    const oldPrivatePem = readFileSync(paths.rsaPrivateKey, 'utf8');
    const before: BackupResult = await createBackup({ stateDir: state.dir, hostname: 'drill' });

    // 2. Rotation. Without a terminal and without --yes it refuses; with --yes it rotates.
    const declined = testIo(env(), state.dir);
    assert.equal(await runCommandWith(rotateCommand, [], declined), 3);
    assert.equal(readFileSync(paths.rsaPrivateKey, 'utf8'), oldPrivatePem, 'declined: nothing changed');

    // An SFTP password encrypted under the old key: the next steps must say to encrypt it again.
    const io = testIo({ ...env(), BACKUP_SFTP_PASSWORD_ENC: 'c2VhbGVkIHVuZGVyIHRoZSBvbGQga2V5' }, state.dir);
    assert.equal(await runCommandWith(rotateCommand, ['--yes'], io), 0, io.stderr);
    assert.match(
      io.stdout,
      /BACKUP_SFTP_PASSWORD_ENC was encrypted with the old key: run encrypt_sftp_password/,
    );
    const archived = `${paths.rsaPrivateKey}.archived.${archiveDate(new Date())}`;
    assert.equal(readFileSync(archived, 'utf8'), oldPrivatePem, 'the old key is archived as is');
    assert.equal(statSync(archived).mode & 0o777, 0o600);
    assert.ok(existsSync(`${paths.rsaPublicKey}.archived.${archiveDate(new Date())}`));
    const newPrivatePem = readFileSync(paths.rsaPrivateKey, 'utf8');
    assert.notEqual(newPrivatePem, oldPrivatePem);
    assert.equal(createPrivateKey(newPrivatePem).asymmetricKeyDetails?.modulusLength, 4096);
    assert.equal(statSync(paths.rsaPrivateKey).mode & 0o777, 0o600);
    assert.match(io.stdout, /Next steps/);
    assert.doesNotMatch(io.stdout + io.stderr, /PRIVATE KEY/, 'no key material is printed');

    // 3. Restart on the same state: every earlier JWT and refresh token is refused.
    k = await startTestKernel({ stateDir: state.dir, seedKeys: false, env: serverEnv });
    try {
      assert.notEqual(k.kernel.runtime.keys.kid, oldKid);
      for (const t of [oldStartup, oauth.access_token]) {
        const r = await getStatus(k, t);
        assert.equal(r.status, 401);
        assert.equal(r.body.error, 'AUTH_FAILED');
        assert.equal(authRecords(k, 'AUTH_FAILED').at(-1)?.reason, 'unknown_kid');
        assert.equal(await mcpStatus(k, t), 401);
      }
      const refresh = await postForm(
        k,
        '/token',
        { grant_type: 'refresh_token', refresh_token: oauth.refresh_token },
        { authorization: basicAuth('noc-agent', secret) },
      );
      assert.equal(refresh.status, 400);
      assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_grant');

      // The new startup tokens (regenerated at this start) and the unchanged client secret work.
      for (const name of ['noc-agent', 'auditor1']) {
        const fresh = clientFiles(state.dir, name).token;
        assert.equal(decodeProtectedHeader(fresh).kid, k.kernel.runtime.keys.kid);
        assert.equal((await getStatus(k, fresh)).status, 200);
      }
      const fresh = await connectMcp(k, clientFiles(state.dir, 'noc-agent').token);
      await fresh.close();
      const cc = await postForm(
        k,
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth('noc-agent', secret) },
      );
      assert.equal(cc.status, 200);
    } finally {
      await k.stop();
    }

    // 4. Backups: the pre-rotation one opens with the archived key only; a new one with the new key only.
    const afterBackup = await createBackup({
      stateDir: state.dir,
      hostname: 'drill',
      now: () => new Date(Date.now() + 5_000),
    });
    const restore = async (
      file: string,
      key: string,
    ): Promise<{ code: number; io: ReturnType<typeof testIo> }> => {
      const rio = testIo(env(), state.dir);
      return { code: await runCommandWith(restoreCommand, ['--file', file, '--key', key], rio), io: rio };
    };
    assert.equal(
      (await restore(before.file, paths.rsaPrivateKey)).code,
      1,
      'the new key does not open an old backup',
    );
    const old = await restore(before.file, archived);
    assert.equal(old.code, 0, old.io.stderr);
    const restoredOld = join(state.dir, `restore_${before.id}`);
    assert.equal(readFileSync(join(restoredOld, 'secrets', 'rsa_private.pem'), 'utf8'), oldPrivatePem);

    assert.equal(
      (await restore(afterBackup.file, archived)).code,
      1,
      'the archived key does not open a new backup',
    );
    const current = await restore(afterBackup.file, paths.rsaPrivateKey);
    assert.equal(current.code, 0, current.io.stderr);
    assert.equal(
      readFileSync(join(state.dir, `restore_${afterBackup.id}`, 'secrets', 'rsa_private.pem'), 'utf8'),
      newPrivatePem,
    );
  });
});

describe('rotate_rsa_keys safeguards', () => {
  it('refuses while a server process runs on the state directory, and changes nothing', async () => {
    const state = tempStateDir('ucmcp-rotation-');
    // Any live process other than this one stands for the server: the check reads server.pid.
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      seedServerKeys(state.dir);
      const pem = readFileSync(join(state.dir, 'secrets', 'rsa_private.pem'), 'utf8');
      writeFileSync(join(state.dir, 'server.pid'), JSON.stringify({ pid: sleeper.pid }));
      const io = testIo({ STATE_DIR: state.dir, ENV_FILE: '' }, state.dir);
      assert.equal(await runCommandWith(rotateCommand, ['--yes'], io), 1);
      assert.match(io.stderr, /server is running .*pid \d+/);
      assert.equal(readFileSync(join(state.dir, 'secrets', 'rsa_private.pem'), 'utf8'), pem);
      assert.deepEqual(
        readdirSync(join(state.dir, 'secrets')).sort(),
        ['rsa_private.pem', 'rsa_public.pem'],
        'no archive was written',
      );
    } finally {
      sleeper.kill();
      state.cleanup();
    }
  });

  it('refuses when there is no key, or an unreadable one, without writing anything', async () => {
    const state = tempStateDir('ucmcp-rotation-');
    try {
      const io = testIo({}, state.dir);
      assert.equal(await runCommandWith(rotateCommand, ['--yes', '--state-dir', state.dir], io), 1);
      assert.match(io.stderr, /no key to rotate/);
      mkdirSync(join(state.dir, 'secrets'));
      writeFileSync(
        join(state.dir, 'secrets', 'rsa_private.pem'),
        '-----BEGIN PRIVATE KEY-----\nZ2FyYmFnZQ==\n-----END PRIVATE KEY-----\n',
      );
      const bad = testIo({}, state.dir);
      assert.equal(await runCommandWith(rotateCommand, ['--yes', '--state-dir', state.dir], bad), 1);
      assert.match(bad.stderr, /not a readable private key/);
      assert.ok(!bad.stderr.includes('Z2FyYmFnZQ'), 'the file content is never echoed');
      assert.deepEqual(readdirSync(join(state.dir, 'secrets')), ['rsa_private.pem']);
    } finally {
      state.cleanup();
    }
  });

  it('never overwrites an archive: a second rotation the same day gets .2, and step 6 accepts the result', async () => {
    const state = tempStateDir('ucmcp-rotation-');
    try {
      seedServerKeys(state.dir);
      const paths = statePaths(state.dir);
      const first = readFileSync(paths.rsaPrivateKey, 'utf8');
      const second = cachedRsaKeyPair('second');
      const third = cachedRsaKeyPair('other');
      const a = installRotatedPair(paths, currentPrivateKey(paths), second, '20260101');
      const b = installRotatedPair(paths, currentPrivateKey(paths), third, '20260101');
      assert.equal(a.archivedPrivate, `${paths.rsaPrivateKey}.archived.20260101`);
      assert.equal(b.archivedPrivate, `${paths.rsaPrivateKey}.archived.20260101.2`);
      assert.equal(b.archivedPublic, `${paths.rsaPublicKey}.archived.20260101.2`);
      assert.equal(readFileSync(a.archivedPrivate, 'utf8'), first);
      assert.equal(readFileSync(b.archivedPrivate, 'utf8'), second.privatePem);
      const keys = await ensureServerKeys(paths);
      assert.equal(keys.source, 'verified');
      assert.equal(
        keys.publicKey.export({ type: 'spki', format: 'pem' }),
        createPublicKey(third.publicPem).export({ type: 'spki', format: 'pem' }),
      );
      // A crash right after the public key was removed leaves the old private key alone: step 6 repairs it.
      rmSync(paths.rsaPublicKey);
      assert.equal((await ensureServerKeys(paths)).source, 'public-restored');
    } finally {
      state.cleanup();
    }
  });
});
