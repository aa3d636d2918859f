import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { generateSelfSigned } from '../helpers/self-signed.ts';
import { startTestKernel, type TestKernel } from '../helpers/kernel.ts';
import { writeFileSync } from 'node:fs';

// Async on purpose: the server under test runs in this process, so a blocking spawn would starve it.
function healthcheck(env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'scripts/healthcheck.mjs')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (status) => resolve({ status, stderr })));
}

describe('container health check (scripts/healthcheck.mjs)', () => {
  let k: TestKernel;
  before(async () => {
    k = await startTestKernel();
  });
  after(async () => {
    await k.stop();
  });

  it('exits 0 against the running server', async () => {
    const r = await healthcheck({ STATE_DIR: k.stateDir, SERVER_PORT: new URL(k.url).port });
    assert.equal(r.status, 0, r.stderr);
  });

  it('exits 1 when the server presents another certificate than the pinned one', async () => {
    const other = join(k.stateDir, 'other.pem');
    writeFileSync(other, generateSelfSigned(['localhost'], 1, 'other').certPem);
    const r = await healthcheck({ TLS_CERT_FILE: other, SERVER_PORT: new URL(k.url).port });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /unexpected certificate/);
  });

  it('exits 1 when nothing listens', async () => {
    const r = await healthcheck({ STATE_DIR: k.stateDir, SERVER_PORT: '1' });
    assert.equal(r.status, 1);
  });
});
