// The container entry mirrors the server's exit, except while an in-place restore holds the marker:
// then it outlives the server it had to stop, so `docker exec backup_restore --replace` can finish.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { removeRestoreMarker, writeRestoreMarker } from '../../../kernel/backup/restore-marker.ts';
import { findRunningServer } from '../../../kernel/backup/server-process.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startEntry(stateDir: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'kernel', 'container-entry.ts')],
    {
      env: {
        ...process.env,
        STATE_DIR: stateDir,
        SERVER_HOST: '127.0.0.1',
        SERVER_PORT: '0',
        ENV_FILE: '',
        INTEGRITY_MODE: 'warn',
        LOGGING_CONSOLE_ENABLED: '0',
        BACKUP_ENABLED: '0',
        AUTH_CLIENTS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.resume();
  child.stderr?.resume();
  return { child, exited: new Promise((r) => child.on('exit', (code) => r(code))) };
}

async function serverPid(stateDir: string): Promise<number> {
  for (let i = 0; i < 300; i++) {
    // The pid file is written once startup is complete (a process scan finds it earlier).
    const s = findRunningServer(stateDir);
    if (s?.via === 'pid-file') return s.pid;
    await sleep(100);
  }
  throw new Error('the server did not start');
}

describe('container entry', () => {
  const dirs: { cleanup(): void }[] = [];
  after(() => dirs.forEach((d) => d.cleanup()));

  it('waits for an in-place restore that stopped the server, then exits 0', async () => {
    const state = tempStateDir('ucmcp-entry-');
    dirs.push(state);
    seedServerKeys(state.dir);
    const { child, exited } = startEntry(state.dir);
    const pid = await serverPid(state.dir);
    writeRestoreMarker(state.dir); // this test process plays the restore
    try {
      process.kill(pid, 'SIGTERM');
      await sleep(2500);
      assert.equal(child.exitCode, null, 'the entry outlives the server while the restore runs');
      assert.equal(findRunningServer(state.dir), undefined, 'the server itself stopped');
    } finally {
      removeRestoreMarker(state.dir);
    }
    assert.equal(await exited, 0);
  });

  it('without a restore, stops with the server: SIGTERM to the entry stops both', async () => {
    const state = tempStateDir('ucmcp-entry-');
    dirs.push(state);
    seedServerKeys(state.dir);
    const { child, exited } = startEntry(state.dir);
    await serverPid(state.dir);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(findRunningServer(state.dir), undefined);
  });
});
