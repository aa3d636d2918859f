import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';

/** Starts `npm start`'s entry point as a real process and resolves once it listens. */
function startServerProcess(stateDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'kernel/main.ts')], {
    env: {
      ...process.env,
      STATE_DIR: stateDir,
      SERVER_PORT: '0',
      LOGGING_CONSOLE_ENABLED: '0',
      ENV_FILE: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  describe(`${signal}`, () => {
    const state = tempStateDir();
    after(() => state.cleanup());

    it('stops cleanly: exit 0 and the audit log ends with the SERVER shutdown record naming the signal', async () => {
      seedServerKeys(state.dir);
      const proc = startServerProcess(state.dir);
      await proc.ready;
      proc.child.kill(signal);
      assert.equal(await proc.exited, 0);
      const lines = readFileSync(join(state.dir, 'logs/audit.log'), 'utf8').trim().split('\n');
      const last = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
      assert.equal(last.event, 'SERVER');
      assert.equal(last.status, 'SHUTDOWN_COMPLETE');
      assert.equal(last.signal, signal);
      const initiated = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => r.status === 'SHUTDOWN_INITIATED');
      assert.equal(initiated?.signal, signal);
    });
  });
}
