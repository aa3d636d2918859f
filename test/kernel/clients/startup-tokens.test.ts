// The startup token in clients/<name>/secrets/.token used to be revoked and replaced at every start,
// so every client configured with it broke at the next restart. It now stays valid across restarts
// until it nears expiry (renewed then, at a start or by the running server's housekeeping), the RSA key
// rotates (test/kernel/auth/key-rotation.test.ts), or the operator revokes it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PID_FILE } from '../../../kernel/backup/server-process.ts';
import { command as revokeCommand } from '../../../kernel/cli/commands/revoke-startup-token.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { renewalMarginSeconds } from '../../../kernel/clients/startup-tokens.ts';
import { captureIo } from '../../helpers/cli-io.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp } from '../../helpers/mcp-client.ts';
import { authRecords, clientFiles, freePort, getStatus } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const TTL = 86_400;

describe('startup tokens', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  let offsetMs = 0;
  const clock = () => Date.now() + offsetMs;
  let env: Record<string, string>;
  const start = () => startTestKernel({ stateDir: state.dir, env, clock });
  const token = () => clientFiles(state.dir, 'noc-agent').token;
  const registration = () =>
    JSON.parse(
      readFileSync(join(state.dir, 'clients/noc-agent/secrets/registration.json'), 'utf8'),
    ) as Record<string, unknown>;

  async function expectStatus(k: TestKernel, t: string, want: number, error?: string) {
    const r = await getStatus(k, t);
    assert.equal(r.status, want, JSON.stringify(r.body));
    if (error) assert.equal(r.body.error, error);
  }

  it('the previous .token still works after a restart, over MCP too', async () => {
    env = {
      SERVER_PORT: String(await freePort()),
      AUTH_CLIENTS: 'noc-agent:operator:cucm',
      AUTH_BCRYPT_COST: '4',
      AUTH_STARTUP_TOKEN_TTL_SECONDS: String(TTL),
    };
    let k = await start();
    const first = token();
    await k.stop();
    k = await start();
    try {
      assert.equal(token(), first, 'the file is kept as is');
      await expectStatus(k, first, 200);
      const mcp = await connectMcp(k, first);
      try {
        assert.ok((await mcp.client.listTools()).tools.length > 0);
      } finally {
        await mcp.close();
      }
    } finally {
      await k.stop();
    }
  });

  it('a token within the renewal margin is replaced at the next start, the old one revoked', async () => {
    const old = token();
    offsetMs = (TTL - renewalMarginSeconds(TTL) + 60) * 1000;
    const k = await start();
    try {
      const fresh = token();
      assert.notEqual(fresh, old);
      await expectStatus(k, fresh, 200);
      await expectStatus(k, old, 401, 'AUTH_REVOKED');
    } finally {
      await k.stop();
    }
  });

  it('the running server renews a token near expiry: the new one written first, then the old revoked', async () => {
    const k = await start();
    try {
      const old = token();
      await k.kernel.runtime.watchdogs.runNow('startup-token-renewal');
      assert.equal(token(), old, 'not due yet: nothing changes');
      offsetMs += (TTL - renewalMarginSeconds(TTL) + 60) * 1000;
      await k.kernel.runtime.watchdogs.runNow('startup-token-renewal');
      const fresh = token();
      assert.notEqual(fresh, old);
      await expectStatus(k, fresh, 200);
      await expectStatus(k, old, 401, 'AUTH_REVOKED');
      assert.equal(
        registration().replaced_startup_token,
        undefined,
        'the replaced token is no longer pending',
      );
      assert.ok(authRecords(k, 'TOKEN_REVOKED').some((r) => r.reason === 'startup_token_renewed'));
    } finally {
      await k.stop();
    }
  });

  it('revoke_startup_token revokes it (server stopped); the next start writes a new one', async () => {
    const old = token();
    // A live process named by server.pid stands for a running server (the in-process test kernel
    // writes none).
    const stand_in = spawn('sleep', ['60'], { stdio: 'ignore' });
    writeFileSync(
      join(state.dir, PID_FILE),
      JSON.stringify({
        pid: stand_in.pid,
        start_ticks: null,
        started_at: new Date().toISOString(),
        state_dir: state.dir,
        version: 'test',
      }),
    );
    const running = captureIo({ STATE_DIR: state.dir }, state.dir);
    const refused = await runCommandWith(revokeCommand, ['--client', 'noc-agent'], running);
    stand_in.kill();
    rmSync(join(state.dir, PID_FILE));
    assert.equal(refused, 1, running.stdout + running.stderr);
    assert.match(running.stderr, /the server is running/);
    assert.equal(token(), old, 'refused while running: nothing changed');

    const io = captureIo({ STATE_DIR: state.dir }, state.dir);
    assert.equal(await runCommandWith(revokeCommand, ['--client', 'noc-agent'], io), 0, io.stderr);
    assert.match(io.stdout, /Revoked the startup token of noc-agent/);
    const usage = captureIo({ STATE_DIR: state.dir }, state.dir);
    assert.equal(await runCommandWith(revokeCommand, ['--client', '../x'], usage), 2);

    const k = await start();
    try {
      const fresh = token();
      assert.notEqual(fresh, old);
      await expectStatus(k, old, 401, 'AUTH_REVOKED');
      await expectStatus(k, fresh, 200);
    } finally {
      await k.stop();
    }
  });
});
