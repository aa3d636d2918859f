// Regression: a start replaces each client's startup token and revokes the old one. It used to write
// the new token to .token before recording it in registration.json and revoke the old one last, so a
// crash in between left a token in .token that no later start would revoke (the registration still
// named the older one): two live startup tokens, one of them for 30 days. Now the old token is revoked
// first and the new one recorded before it is written. The server is killed just before each of those
// writes in turn; whatever .token held at the crash must be refused after the next start.
// A start keeps a startup token that is still valid, so before each armed start the operator command
// revoke_startup_token makes that start replace it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { command as revokeCommand } from '../../../kernel/cli/commands/revoke-startup-token.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { captureIo } from '../../helpers/cli-io.ts';
import type { TestKernel } from '../../helpers/kernel.ts';
import { freePort, serverFetch, spawnServer } from '../../helpers/server-process.ts';
import { crashStateDir } from './harness.ts';
import { crashDuringStart, spawnArmed } from './crash-points.ts';
import { StartupTokens } from './startup-tokens.ts';
import { newResult } from './harness.ts';

describe('crash while a start replaces the startup tokens', () => {
  const state = crashStateDir('ucmcp-crash-token-');
  after(() => state.cleanup());

  it('every token .token ever held, but the current one, is refused after the next start', async () => {
    const port = await freePort();
    const o = { stateDir: state.dir, port, env: { AUTH_CLIENTS: 'a:operator:cucm' } };
    const tokens = new StartupTokens(state.dir, ['a']);
    const first = spawnServer(o);
    await first.ready;
    tokens.observe();
    assert.equal(await first.stop(), 0);

    const files = ['registration\\.json', '\\.token', 'issued_tokens\\.json'];
    const killedAt: string[] = [];
    for (const file of files) {
      const io = captureIo({ STATE_DIR: state.dir }, state.dir);
      assert.equal(await runCommandWith(revokeCommand, ['--client', 'a'], io), 0, io.stderr);
      const armed = spawnArmed(o, { at: 1, match: `/clients/a/secrets/${file}$` });
      if (await crashDuringStart(armed)) killedAt.push(file);
      else await armed.kill();
      tokens.observe();
    }
    assert.deepEqual(killedAt, files, 'each armed start died at its step');

    const server = spawnServer(o);
    await server.ready;
    tokens.observe();
    const fetch = serverFetch(state.dir);
    const result = newResult('startup tokens', { iterations: 0, seed: 0 });
    try {
      await tokens.check({ url: `https://127.0.0.1:${port}`, fetch } as unknown as TestKernel, 1, result);
    } finally {
      await fetch.close();
      await server.stop();
    }
    assert.deepEqual(result.violations, []);
    assert.ok(tokens.tokensOf('a').length >= 2, 'the crashes left earlier tokens to check');
  });
});
