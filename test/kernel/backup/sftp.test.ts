import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBackup, type BackupResult } from '../../../kernel/backup/create-backup.ts';
import { BackupError } from '../../../kernel/backup/errors.ts';
import { encryptSftpPassword } from '../../../kernel/backup/sftp-password.ts';
import { uploadBackup } from '../../../kernel/backup/upload.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { command as restoreCommand } from '../../../kernel/cli/commands/backup-restore.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { startTestKernel } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo, populateState, serverKeys, treeHash } from './helpers.ts';
import { startSftpServer, type TestSftpServer } from './sftp-server.ts';

const USER = 'backup';
const PASSWORD = 'Sftp-Pw-4c1d9e';

describe('SFTP copy of backups (pinned host key)', () => {
  const state = tempStateDir('ucmcp-sftp-');
  const remote = tempStateDir('ucmcp-sftp-remote-');
  const keyDir = tempStateDir('ucmcp-sftp-key-');
  let server: TestSftpServer;
  let backup: BackupResult;
  const { privateKey, publicKey } = serverKeys();
  const cfg = () => ({
    BACKUP_SFTP_HOST: '127.0.0.1',
    BACKUP_SFTP_PORT: server.port,
    BACKUP_SFTP_USER: USER,
    BACKUP_SFTP_PASSWORD_ENC: encryptSftpPassword(PASSWORD, publicKey),
    BACKUP_SFTP_PATH: 'offsite',
    BACKUP_SFTP_HOST_KEY: server.fingerprint,
  });

  before(async () => {
    mkdirSync(join(remote.dir, 'offsite'));
    server = await startSftpServer({ root: remote.dir, user: USER, password: PASSWORD });
    populateState(state.dir);
    backup = await createBackup({ stateDir: state.dir, publicKey, hostname: 'uc1' });
  });
  after(async () => {
    await server.close();
    state.cleanup();
    remote.cleanup();
    keyDir.cleanup();
  });

  it('uploads the archive and its sidecar, complete (temporary names renamed)', async () => {
    const path = await uploadBackup(backup, cfg(), privateKey);
    assert.equal(path, `offsite/${basename(backup.file)}`);
    const dir = join(remote.dir, 'offsite');
    assert.deepEqual(readdirSync(dir).sort(), [basename(backup.file), basename(backup.sidecar)]);
    assert.ok(readFileSync(join(dir, basename(backup.file))).equals(readFileSync(backup.file)));
    assert.equal(
      readFileSync(join(dir, basename(backup.sidecar)), 'utf8'),
      readFileSync(backup.sidecar, 'utf8'),
    );
  });

  it('refuses a host key other than the pinned one before sending the password', async () => {
    const attempts = server.authAttempts;
    const wrong = `SHA256:${'A'.repeat(43)}`;
    await assert.rejects(
      uploadBackup(backup, { ...cfg(), BACKUP_SFTP_HOST_KEY: wrong }, privateKey),
      (err: unknown) => {
        assert.ok(err instanceof BackupError);
        assert.match(
          err.message,
          new RegExp(`presented host key ${server.fingerprint.replace(/[+/]/g, '\\$&')}, not the pinned`),
        );
        assert.ok(!err.message.includes(PASSWORD));
        return true;
      },
    );
    assert.equal(server.authAttempts, attempts, 'no password was offered to the impostor');
  });

  it('a wrong password or a password encrypted for another key: clear errors, no secret in them', async () => {
    await assert.rejects(
      uploadBackup(
        backup,
        { ...cfg(), BACKUP_SFTP_PASSWORD_ENC: encryptSftpPassword('nope', publicKey) },
        privateKey,
      ),
      /SFTP connection to 127\.0\.0\.1:\d+ failed: All configured authentication methods failed/,
    );
    await assert.rejects(
      uploadBackup(
        backup,
        { ...cfg(), BACKUP_SFTP_PASSWORD_ENC: encryptSftpPassword(PASSWORD, serverKeys('other').publicKey) },
        privateKey,
      ),
      /does not decrypt with this private key/,
    );
  });

  it('backup_restore --file sftp://... downloads, checks and extracts (live state untouched)', async () => {
    await uploadBackup(backup, cfg(), privateKey);
    const keyFile = join(keyDir.dir, 'rsa_private.pem');
    writeFileSync(keyFile, cachedRsaKeyPair().privatePem, { mode: 0o600 });
    const before_ = treeHash(state.dir);
    const io = fakeIo({
      STATE_DIR: state.dir,
      ENV_FILE: '',
      BACKUP_SFTP_PASSWORD_ENC: cfg().BACKUP_SFTP_PASSWORD_ENC,
    });
    const url = `sftp://${USER}@127.0.0.1:${server.port}/offsite/${basename(backup.file)}`;
    const code = await runCommandWith(
      restoreCommand,
      ['--file', url, '--key', keyFile, '--host-key', server.fingerprint],
      io,
    );
    assert.equal(code, 0, io.stderr);
    const dest = join(state.dir, `restore_${backup.id}`);
    assert.ok(existsSync(join(dest, 'secrets', 'vault_master.key')));
    assert.match(io.stdout, /Extracted into/);
    assert.ok(!io.stdout.includes(PASSWORD) && !io.stderr.includes(PASSWORD));
    const after_ = treeHash(state.dir, (rel) => rel.startsWith('restore_'));
    assert.deepEqual(after_, new Map([...before_].filter(([rel]) => !rel.startsWith('restore_'))));
    assert.deepEqual(
      readdirSync(state.dir).filter((f) => f.startsWith('.restore-')),
      [],
      'download removed',
    );

    const bad = fakeIo({
      STATE_DIR: state.dir,
      ENV_FILE: '',
      BACKUP_SFTP_PASSWORD_ENC: cfg().BACKUP_SFTP_PASSWORD_ENC,
    });
    const refused = await runCommandWith(
      restoreCommand,
      ['--file', url, '--key', keyFile, '--host-key', `SHA256:${'B'.repeat(43)}`],
      bad,
    );
    assert.equal(refused, 1);
    assert.match(bad.stderr, /not the pinned .*\nNothing was changed\./s);
  });

  it('the running server uploads each backup it makes', async () => {
    const k = await startTestKernel({
      env: {
        AUTH_BCRYPT_COST: '4',
        BACKUP_SFTP_HOST: '127.0.0.1',
        BACKUP_SFTP_PORT: String(server.port),
        BACKUP_SFTP_USER: USER,
        BACKUP_SFTP_PASSWORD_ENC: cfg().BACKUP_SFTP_PASSWORD_ENC,
        BACKUP_SFTP_PATH: 'offsite',
        BACKUP_SFTP_HOST_KEY: server.fingerprint,
      },
    });
    try {
      const deadline = Date.now() + 20_000;
      let uploaded: Record<string, unknown> | undefined;
      while (!uploaded && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        uploaded = k.auditRecords().find((r) => r.status === 'BACKUP_UPLOADED');
      }
      assert.ok(uploaded, 'BACKUP_UPLOADED audited');
      assert.ok(existsSync(join(remote.dir, 'offsite', String(uploaded.file))));
      assert.ok(existsSync(join(remote.dir, 'offsite', `${String(uploaded.file)}.sha512`)));
    } finally {
      await k.stop();
    }
  });
});
