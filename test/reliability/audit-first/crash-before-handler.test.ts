// Audit first across a crash: the server (a real separate process, signed install) is killed the
// moment a tool call's handler is entered. The call's AUTH_OK and STARTED records, written together
// before that, must be in the file whole; a STARTED record written later, or buffered in the process,
// would be lost with it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FetchLike } from '@modelcontextprotocol/client';
import { connectModern } from '../../helpers/mcp-client-v2.ts';
import { startupToken } from '../../helpers/mcp-client.ts';
import {
  freePort,
  serverFetch,
  signedInstall,
  spawnServer,
  type ServerProcess,
  type SignedInstall,
} from '../../helpers/server-process.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const KILL_AT_HANDLER = join(import.meta.dirname, 'kill-at-handler.ts');

describe('a crash as the handler starts leaves the call audited', () => {
  const state = tempStateDir();
  let install: SignedInstall;
  let server: ServerProcess | undefined;

  before(async () => {
    install = await signedInstall();
    await install.license(state.dir);
  });
  after(async () => {
    await server?.kill();
    install?.cleanup();
    state.cleanup();
  });

  it('AUTH_OK and STARTED are on disk, whole and parseable, and nothing after them', async () => {
    server = spawnServer({
      stateDir: state.dir,
      port: await freePort(),
      installDir: install.dir,
      preload: [KILL_AT_HANDLER],
      env: { AUTH_CLIENTS: 'ada:admin:cucm' },
    });
    const url = await server.ready;
    const fetch = serverFetch(state.dir);
    const token = startupToken(state.dir, 'ada');
    const c = await connectModern({ url, fetch }, token, { fetch: fetch as unknown as FetchLike });
    const answer = c.client.callTool({ name: 'infra_health', arguments: {} }).then(
      () => 'answered',
      () => 'connection lost',
    );
    const { signal } = await server.exited;
    assert.equal(await answer, 'connection lost');
    await fetch.close();
    assert.equal(signal, 'SIGKILL', server.output());

    const text = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8');
    assert.ok(text.endsWith('\n'), 'the log ends with a whole line');
    const records = text
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = records.slice(-2);
    assert.deepEqual(
      last.map((r) => `${String(r.event)}:${String(r.status)}`),
      ['AUTH:AUTH_OK', 'ACTIONS:STARTED'],
      'the last records are the call about to run: nothing of its outcome',
    );
    const [auth, started] = last;
    assert.equal(auth?.client, 'ada');
    assert.equal(auth?.path, '/mcp');
    assert.equal(typeof auth?.jti, 'string');
    assert.equal(started?.client, 'ada');
    assert.equal(started?.tool_name, 'infra_health');
    assert.match(String(started?.call_id), /^[0-9a-f-]{36}$/);
    for (const r of last) assert.ok(!Number.isNaN(Date.parse(String(r.timestamp))));
  });
});
