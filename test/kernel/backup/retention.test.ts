import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { selectArchiveContents } from '../../../kernel/backup/contents.ts';
import { spawn } from 'node:child_process';
import { ARCHIVES_BEING_WRITTEN } from '../../../kernel/backup/create-backup.ts';
import { listBackups, pruneBackups, removeLeftovers } from '../../../kernel/backup/retention.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { populateState } from './helpers.ts';

describe('backup contents', () => {
  const state = tempStateDir('ucmcp-contents-');
  after(() => state.cleanup());

  it('holds what a restore needs and nothing else', () => {
    populateState(state.dir);
    mkdirSync(join(state.dir, 'backups'));
    writeFileSync(join(state.dir, 'backups', 'backup_202601_h_20260101_000000.tar.gz.enc'), 'x');
    writeFileSync(join(state.dir, 'server.pid'), '{"pid":1}');
    const paths = selectArchiveContents(state.dir).entries.map((e) => `${e.type} ${e.path}`);
    assert.deepEqual(paths, [
      'file .env',
      'dir secrets',
      'file secrets/rsa_private.pem',
      'file secrets/rsa_public.pem',
      'file secrets/token_blacklist.json',
      'file secrets/vault_master.key',
      'dir clients',
      'dir clients/alice',
      'file clients/alice/client.json',
      'dir clients/alice/secrets',
      'file clients/alice/secrets/registration.json',
      'dir clients/alice/vault',
      'file clients/alice/vault/credentials.json',
      'dir profiles',
      'file profiles/admin.json',
      'dir reports',
      'dir reports/alice',
      'file reports/alice/audit @2026.md',
      'dir logs',
      'file logs/audit.log',
      'file logs/audit.log.2026-01-01T00-00-00-000Z.0.gz',
    ]);
  });
});

describe('backup retention', () => {
  const dir = tempStateDir('ucmcp-retention-');
  after(() => dir.cleanup());
  const put = (name: string, ageMs = 0): void => {
    writeFileSync(join(dir.dir, name), name);
    if (ageMs > 0)
      utimesSync(join(dir.dir, name), new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
  };

  it('keeps the newest N by the time in their names, each with its sidecar; leaves other files alone', () => {
    for (const day of ['01', '02', '03', '04', '05']) {
      const f = `backup_202601_uc1_202601${day}_120000.tar.gz.enc`;
      put(f);
      put(`${f}.sha512`);
    }
    // Another host's backup sorts by time with the rest; the operator's notes stay.
    put('backup_202512_uc2_20251231_235959.tar.gz.enc');
    put('notes.txt');
    put('.backup_x.tar.gz.enc.1.ab.tmp', 7 * 3_600_000);
    put('.backup_y.tar.gz.enc.1.ab.tmp');
    put('backup_202512_uc1_20251201_000000.tar.gz.enc.sha512', 7 * 3_600_000);

    const removed = pruneBackups(dir.dir, 3);
    assert.deepEqual(removed, [
      'backup_202601_uc1_20260102_120000.tar.gz.enc',
      'backup_202601_uc1_20260101_120000.tar.gz.enc',
      'backup_202512_uc2_20251231_235959.tar.gz.enc',
    ]);
    assert.deepEqual(readdirSync(dir.dir).sort(), [
      '.backup_y.tar.gz.enc.1.ab.tmp',
      'backup_202601_uc1_20260103_120000.tar.gz.enc',
      'backup_202601_uc1_20260103_120000.tar.gz.enc.sha512',
      'backup_202601_uc1_20260104_120000.tar.gz.enc',
      'backup_202601_uc1_20260104_120000.tar.gz.enc.sha512',
      'backup_202601_uc1_20260105_120000.tar.gz.enc',
      'backup_202601_uc1_20260105_120000.tar.gz.enc.sha512',
      'notes.txt',
    ]);
    assert.equal(listBackups(dir.dir)[0]?.id, '202601_uc1_20260105_120000');
  });

  it("removes a dead writer's partial archive at once, a live writer's only once old", async (t) => {
    // A pid that ran and is gone: a child that exited.
    const child = spawn(process.execPath, ['-e', '']);
    const dead = await new Promise<number>((r) => child.on('exit', () => r(child.pid as number)));
    const own = tempStateDir('ucmcp-leftovers-');
    t.after(() => own.cleanup());
    const put = (name: string, ageMs = 0): void => {
      writeFileSync(join(own.dir, name), name);
      const at = new Date(Date.now() - ageMs);
      utimesSync(join(own.dir, name), at, at);
    };
    const fresh = (pid: number): string =>
      `.backup_202601_uc1_20260101_120000.tar.gz.enc.${pid}.0a1b2c3d.tmp`;
    put(fresh(dead));
    // The sidecar's atomic write of the same dead server (12 hex digits).
    put(`.backup_202601_uc1_20260101_120000.tar.gz.enc.sha512.${dead}.0a1b2c3d4e5f.tmp`);
    put(fresh(process.ppid).replace('0a1b2c3d', '11111111'));
    put(fresh(process.ppid).replace('0a1b2c3d', '22222222'), 7 * 3_600_000);
    // This process: one archive it is writing now, one from an earlier life under the same pid.
    const writing = join(own.dir, fresh(process.pid).replace('0a1b2c3d', '33333333'));
    put(fresh(process.pid).replace('0a1b2c3d', '33333333'));
    put(fresh(process.pid).replace('0a1b2c3d', '44444444'));
    ARCHIVES_BEING_WRITTEN.add(writing);
    try {
      removeLeftovers(own.dir);
    } finally {
      ARCHIVES_BEING_WRITTEN.delete(writing);
    }
    assert.deepEqual(
      readdirSync(own.dir).sort(),
      [
        fresh(process.ppid).replace('0a1b2c3d', '11111111'),
        fresh(process.pid).replace('0a1b2c3d', '33333333'),
      ].sort(),
    );
  });
});
