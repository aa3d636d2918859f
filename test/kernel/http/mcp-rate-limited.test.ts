// The spec answers a rate-limited tool call with HTTP 429 and Retry-After; the MCP route answered it
// 200 with an isError result in the stream, like any other refusal. Now the rate-limited call gets
// 429 (the JSON-RPC error still says RATE_LIMITED and the seconds); other coded refusals are unchanged.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { MCP_HEADERS, openRawSession } from '../../reliability/fuzz/support/http-session.ts';

const LIMIT = 2;

function writeProfile(stateDir: string): void {
  const base = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'profiles/_default/auditor.json'), 'utf8'),
  ) as Record<string, unknown>;
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  writeFileSync(
    join(stateDir, 'profiles', 'limited.json'),
    JSON.stringify({
      ...base,
      name: 'limited',
      tools: { allow: ['infra_*'], deny: [] },
      rateLimits: { infra: { default: { limit: LIMIT, windowSeconds: 60 } } },
    }),
  );
}

describe('a rate-limited tools/call', () => {
  const state = tempStateDir();
  let k: TestKernel;
  before(async () => {
    seedServerKeys(state.dir);
    writeProfile(state.dir);
    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { AUTH_CLIENTS: 'rita:limited:cucm,rosa:limited:cucm', AUTH_BCRYPT_COST: '4' },
    });
  });
  after(async () => {
    await k.stop();
    state.cleanup();
  });

  const records = (client: string, pred: (r: Record<string, unknown>) => boolean) =>
    k.auditRecords().filter((r) => r.client === client && pred(r));

  describe('as a real MCP client sees it', () => {
    let c: ConnectedClient;
    before(async () => {
      c = await connectMcp(k, startupToken(k.stateDir, 'rita'));
    });
    after(async () => {
      await c.close();
    });

    it('is an HTTP 429 whose JSON-RPC error says RATE_LIMITED and the seconds; the session goes on', async () => {
      for (let i = 0; i < LIMIT; i++) assert.equal((await c.call('infra_health')).isError, undefined);
      const err = await c.call('infra_health').then(
        () => assert.fail('the call was answered'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof StreamableHTTPError, String(err));
      assert.equal(err.code, 429);
      assert.match(err.message, /RATE_LIMITED: rate limit of 2 default calls per 60 s exceeded for infra/);
      assert.match(err.message, /"retry_after_s":\d+/);
      // Other requests of the session are unaffected, and another refusal keeps its in-band form.
      const tools = await c.client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'infra_health'));
      await assert.rejects(c.call('no_such_tool'), /-32602.*NOT_FOUND/);
      // The 429 is only for a call that would reach its limit: one the earlier checks refuse (here its
      // input) keeps that refusal, in band, even against a full window.
      const bad = await c.call('infra_health', { bogus: 1 });
      assert.equal(bad.structuredContent?.error, 'BAD_REQUEST', JSON.stringify(bad.content));
    });

    it('is recorded once: one RATE_LIMITED record, one ACTIONS outcome, one metric increment', async () => {
      const limited = records('rita', (r) => r.event === 'RATE_LIMITED');
      assert.equal(limited.length, 1);
      const outcomes = records('rita', (r) => r.event === 'ACTIONS' && r.result === 'RATE_LIMITED');
      assert.equal(outcomes.length, 1);
      assert.equal(outcomes[0]?.call_id, limited[0]?.call_id);
      const metrics = await (await k.fetch(`${k.url}/metrics`)).text();
      assert.match(
        metrics,
        /ucmcp_rate_limited_total\{client="rita",product="infra",service="default"\} 1\n/,
      );
      assert.match(
        metrics,
        /ucmcp_tool_calls_total\{client="rita",tool="infra_health",status="RATE_LIMITED"\} 1\n/,
      );
    });
  });

  it('over raw HTTPS: status 429, a Retry-After header equal to the seconds in the body, the id echoed', async () => {
    const token = startupToken(k.stateDir, 'rosa');
    const sid = await openRawSession(k, token);
    const call = (id: number) =>
      k.fetch(`${k.url}/mcp`, {
        method: 'POST',
        headers: {
          ...MCP_HEADERS,
          authorization: `Bearer ${token}`,
          'mcp-session-id': sid,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'infra_health' } }),
      });
    for (let i = 0; i < LIMIT; i++) {
      const ok = await call(i + 10);
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /"id":1\d/);
    }
    const before = records('rosa', (r) => r.event === 'RATE_LIMITED').length;
    for (const id of [77, 78]) {
      const res = await call(id);
      assert.equal(res.status, 429);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const retry = res.headers.get('retry-after') ?? '';
      assert.match(retry, /^[1-9]\d*$/);
      const body = (await res.json()) as {
        jsonrpc: string;
        id: number;
        error: { code: number; message: string; data: { error: string; retry_after_s: number } };
      };
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.id, id);
      assert.match(body.error.message, /^RATE_LIMITED: /);
      assert.equal(body.error.data.error, 'RATE_LIMITED');
      assert.equal(body.error.data.retry_after_s, Number(retry));
      assert.ok(Number(retry) <= 60);
    }
    assert.equal(
      records('rosa', (r) => r.event === 'RATE_LIMITED').length - before,
      2,
      'one record per refusal',
    );
  });
});
