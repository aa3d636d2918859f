import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BackupError } from '../../../kernel/backup/errors.ts';
import {
  findRunningServer,
  PID_FILE,
  stopServer,
  writePidFile,
} from '../../../kernel/backup/server-process.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

/** Field 22 of /proc/<pid>/stat, as the server records it. */
function startTicks(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] as string;
}

describe('finding and stopping the running server', () => {
  const state = tempStateDir('ucmcp-pid-');
  after(() => state.cleanup());

  it('the pid file names a live process: found; SIGTERM and wait until it is gone', async () => {
    const child = spawn(process.execPath, [
      '-e',
      'process.on("SIGTERM", () => setTimeout(() => process.exit(0), 300)); setInterval(() => {}, 1000)',
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const pid = child.pid as number;
    writeFileSync(join(state.dir, PID_FILE), JSON.stringify({ pid, start_ticks: startTicks(pid) }));
    assert.deepEqual(findRunningServer(state.dir), { pid, via: 'pid-file' });
    const exited = new Promise((r) => child.on('exit', r));
    await stopServer({ pid, via: 'pid-file' }, 5_000);
    await exited;
    assert.equal(findRunningServer(state.dir), undefined, 'a dead pid is stale');
  });

  it('a recycled pid (another start time) is not the server; our own pid never is', () => {
    writeFileSync(join(state.dir, PID_FILE), JSON.stringify({ pid: 1, start_ticks: '1' }));
    assert.equal(findRunningServer(state.dir), undefined);
    writePidFile(state.dir);
    assert.equal(JSON.parse(readFileSync(join(state.dir, PID_FILE), 'utf8')).pid, process.pid);
    assert.equal(findRunningServer(state.dir), undefined);
  });

  it('a server that ignores SIGTERM: a timeout error that says nothing was restored', async () => {
    const child = spawn(process.execPath, [
      '-e',
      'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); process.stdout.write("ready\\n")',
    ]);
    // Once it says so, not after a guess: on a loaded machine a fixed wait ended before the handler was
    // installed, and SIGTERM stopped it.
    await new Promise((r) => child.stdout.once('data', r));
    try {
      await assert.rejects(stopServer({ pid: child.pid as number, via: 'pid-file' }, 500), (err: unknown) => {
        assert.ok(err instanceof BackupError && err.reason === 'SERVER_STOP_TIMEOUT');
        assert.match(err.message, /did not stop within .*nothing was restored/);
        return true;
      });
    } finally {
      child.kill('SIGKILL');
    }
  });
});
