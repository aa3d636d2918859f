import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { withFileLock } from '../../../kernel/store/file-lock.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('withFileLock', () => {
  const temp = tempStateDir('ucmcp-lock-');
  after(() => temp.cleanup());
  const busy = () => new Error('busy');

  it('runs one holder at a time and removes the lock after, also when the holder throws', async () => {
    const file = join(temp.dir, 'sub', 'doc.json');
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((n) =>
        withFileLock(
          file,
          () => {
            assert.equal(existsSync(`${file}.lock`), true);
            order.push(n);
          },
          { busy },
        ),
      ),
    );
    assert.deepEqual(order.sort(), ['a', 'b', 'c']);
    await assert.rejects(
      withFileLock(
        file,
        () => {
          throw new Error('inside');
        },
        { busy },
      ),
      /inside/,
    );
    assert.equal(existsSync(`${file}.lock`), false);
  });

  it('takes over at once a lock of this host whose process is gone, or of an earlier life of this one', async () => {
    const file = join(temp.dir, 'crashed.json');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    for (const pid of [dead, process.pid]) {
      writeFileSync(`${file}.lock`, `${pid}@${hostname()}\n`);
      assert.equal(await withFileLock(file, () => 'ran', { busy, waitMs: 60 }), 'ran', String(pid));
      assert.equal(existsSync(`${file}.lock`), false);
    }
  });

  it('leaves a live process’s lock, and another host’s, until they are stale', async () => {
    const file = join(temp.dir, 'live.json');
    for (const holder of [`${process.ppid}@${hostname()}`, `${process.pid}@another-host`]) {
      writeFileSync(`${file}.lock`, `${holder}\n`);
      await assert.rejects(
        withFileLock(file, () => 1, { busy, waitMs: 60 }),
        /busy/,
        holder,
      );
      assert.equal(await withFileLock(file, () => 2, { busy, waitMs: 200, staleMs: 50 }), 2, holder);
    }
  });

  it('waits for a live holder and gives up with the caller’s error', async () => {
    const file = join(temp.dir, 'held.json');
    writeFileSync(`${file}.lock`, 'other\n');
    await assert.rejects(
      withFileLock(file, () => 1, { busy, waitMs: 60 }),
      /busy/,
    );
    assert.equal(existsSync(`${file}.lock`), true, 'a live holder’s lock is not taken');
  });
});
