// A tool's context builds its logger (and vault view, credential pages) only when the handler reaches
// for it: the logger a handler gets must still be its own, bound to the plugin, the tool and the caller
// of that call, every call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

const CONFORMANCE = join(import.meta.dirname, '..', '..', 'conformance', 'plugins');

describe("a tool's context", () => {
  let k: TestKernel;
  const clients: ConnectedClient[] = [];
  before(async () => {
    k = await startTestKernel({
      extraPluginDirs: [CONFORMANCE],
      env: { AUTH_CLIENTS: 'lea:admin:cucm,max:admin:cucm', AUTH_BCRYPT_COST: '4' },
    });
    for (const name of ['lea', 'max']) clients.push(await connectMcp(k, startupToken(k.stateDir, name)));
  });
  after(async () => {
    for (const c of clients) await c.close();
    await k.stop();
  });

  it("logs each call's lines under its plugin, tool and caller", async () => {
    for (const c of [...clients, ...clients]) {
      const r = await c.call('test_logging_tool');
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
    }
    const lines = readFileSync(join(k.stateDir, 'logs', 'app.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('conformance logging tool called'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l.plugin, l.tool, l.client]),
      ['lea', 'max', 'lea', 'max'].map((client) => ['conformance', 'test_logging_tool', client]),
    );
  });
});
