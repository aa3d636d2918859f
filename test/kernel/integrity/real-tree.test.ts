import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listCoveredFiles } from '../../../kernel/integrity/tree.ts';
import { verifyTree } from '../../../kernel/integrity/verify.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { stageSignedTree } from '../../../kernel/vendor/stage.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { testKey } from './fixture.ts';

function run(cwd: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout })));
}

describe('integrity: a signed copy of the real project tree', () => {
  const state = tempStateDir('ucmcp-stage-');
  const root = join(state.dir, 'install');
  let stagedMs = 0;
  before(async () => {
    const key = testKey('vendor');
    stagedMs = (
      await stageSignedTree({ from: PROJECT_ROOT, to: root, privateKey: key.privateKey, publisher: key.id })
    ).ms;
  });
  after(() => state.cleanup());

  it('verifies as valid, and hashing the whole tree is fast', async (t) => {
    const shipped = (await listCoveredFiles(root)).length;
    const { report } = await verifyTree(root);
    assert.equal(report.status, 'valid', report.reason);
    assert.equal(report.filesChecked, shipped, 'every shipped file is checked');
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push((await verifyTree(root)).report.durationMs);
    t.diagnostic(
      `staged and signed in ${stagedMs} ms; verified ${report.filesChecked} files: ` +
        `first ${report.durationMs} ms, warm ${runs.join('/')} ms`,
    );
    assert.ok(Math.min(...runs) < 2000, 'a few hundred files verify well within two seconds');
  });

  it('one byte changed in a shipped file is reported with both hashes', async () => {
    const rel = 'kernel/paths.ts';
    const buf = readFileSync(join(root, rel));
    buf[0] = (buf[0] as number) ^ 1;
    writeFileSync(join(root, rel), buf);
    const { report } = await verifyTree(root);
    assert.equal(report.status, 'modified');
    const f = report.files.find((x) => x.path === rel);
    assert.equal(f?.state, 'modified');
    assert.match(f?.expected ?? '', /^[0-9a-f]{128}$/);
    assert.match(f?.actual ?? '', /^[0-9a-f]{128}$/);
    assert.notEqual(f?.expected, f?.actual);
    buf[0] = (buf[0] as number) ^ 1;
    writeFileSync(join(root, rel), buf);
  });

  it('the staged install runs: its own update_manifest --check says valid', async () => {
    const r = await run(root, [join(root, 'scripts/update_manifest.ts'), '--check']);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /^integrity: valid/);
  });
});
