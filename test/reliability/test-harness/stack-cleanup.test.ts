// A test file whose `before` hook fails after starting a product stack must still end: the stack's open
// servers would otherwise keep the file's process, and `npm test` with it, alive until CI's time limit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const fixture = join(import.meta.dirname, '../../fixtures/harness/failing-before.test-fixture.ts');

describe('product stacks left by a failed hook', () => {
  it('are stopped when the file ends, so the process exits (with the failure reported)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', fixture], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Without this the child reports to this runner instead of running its own file.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const limit = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 120_000).unref());
    const code = await Promise.race([ended, limit]);
    if (code === 'hung') child.kill('SIGKILL');
    assert.notEqual(code, 'hung', `the test process did not exit:\n${out.slice(-2000)}`);
    assert.notEqual(code, 0, 'the failure is still reported');
    assert.match(out, /the hook failed after starting its stack/);
  });
});
