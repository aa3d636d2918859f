import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { statePaths } from '../../../kernel/paths.ts';
import { removeInterruptedWrites } from '../../../kernel/store/leftovers.ts';
import { startTestKernel } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

/** A pid that ran and is gone: a child that exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((r) => child.on('exit', () => r(child.pid as number)));
}

describe('temporary files of interrupted atomic writes', () => {
  it("removes a dead writer's and this pid's earlier life's; keeps a live writer's and anything else", async (t) => {
    const state = tempStateDir('ucmcp-leftovers-');
    t.after(() => state.cleanup());
    const paths = statePaths(state.dir);
    const dead = await deadPid();
    const put = (rel: string): string => {
      const p = join(state.dir, rel);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, 'half');
      return rel;
    };
    const gone = [
      put(`secrets/.token_blacklist.json.${dead}.0123456789ab.tmp`),
      put(`clients/alice/vault/.credentials.json.${dead}.0123456789ab.tmp`),
      put(`clients/alice/secrets/.registration.json.${process.pid}.0123456789ab.tmp`),
      put(`profiles/.admin.json.${dead}.0123456789ab.tmp`),
      put(`reports/alice/.audit.md.${dead}.0123456789ab.tmp`),
      put(`.server.pid.${dead}.0123456789ab.tmp`),
    ];
    const kept = [
      put(`clients/alice/vault/.credentials.json.${process.ppid}.0123456789ab.tmp`),
      put('clients/alice/vault/notes.tmp'),
      put(`.credentials.json.${dead}.tmp`),
      put(`kernel/.x.ts.${dead}.0123456789ab.tmp`),
    ];
    assert.deepEqual(removeInterruptedWrites(paths).sort(), gone.sort());
    for (const rel of gone) assert.equal(existsSync(join(state.dir, rel)), false, rel);
    for (const rel of kept) assert.equal(existsSync(join(state.dir, rel)), true, rel);
  });

  it('the server removes them when it starts, and says so in app.log', async (t) => {
    const state = tempStateDir('ucmcp-leftovers-start-');
    t.after(() => state.cleanup());
    const rel = `secrets/.token_blacklist.json.${await deadPid()}.0123456789ab.tmp`;
    mkdirSync(join(state.dir, 'secrets'), { recursive: true });
    writeFileSync(join(state.dir, rel), '{"half');
    const k = await startTestKernel({ stateDir: state.dir });
    try {
      assert.equal(existsSync(join(state.dir, rel)), false);
      const said = readFileSync(join(state.dir, 'logs', 'app.log'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('writes a crash interrupted'))
        .map((l) => (JSON.parse(l) as { files: string[] }).files);
      assert.deepEqual(said, [[rel]]);
    } finally {
      await k.stop();
    }
  });
});
