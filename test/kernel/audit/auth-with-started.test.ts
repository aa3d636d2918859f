// A tool call's AUTH_OK and STARTED records leave in one write(2), AUTH_OK first, before the handler
// runs; a request with no tool call (tools/list, GET) still has its AUTH_OK written on its own before
// it is answered. Both MCP revisions, real SDK clients over HTTPS. The writes are observed on the audit
// log's file sink itself: the file on disk cannot tell one write from two.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RotatingFile } from '../../../kernel/logging/rotating-file.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { connectModern } from '../../helpers/mcp-client-v2.ts';

type Rec = Record<string, unknown>;

describe('AUTH_OK and STARTED in one audit write', () => {
  let k: TestKernel;
  /** Every write to the audit file, as the records it carried. */
  const writes: Rec[][] = [];

  before(async () => {
    k = await startTestKernel({ env: { AUTH_CLIENTS: 'ada:admin:cucm,otto:auditor:cucm' } });
    const file = (k.kernel.runtime.audit as unknown as { file: RotatingFile }).file;
    const writeLines = file.writeLines.bind(file);
    file.writeLines = (lines) => {
      writeLines(lines);
      writes.push(lines.map((l) => JSON.parse(l) as Rec));
    };
  });
  after(async () => {
    await k.stop();
  });

  const statuses = (w: Rec[]): string[] => w.map((r) => `${String(r.event)}:${String(r.status)}`);

  for (const [label, connect] of [
    [
      '2025-11-25 session',
      async (token: string) => {
        const c = await connectMcp(k, token);
        return {
          list: () => c.client.listTools(),
          call: (name: string) => c.client.callTool({ name, arguments: {} }),
          close: () => c.close(),
        };
      },
    ],
    [
      '2026-07-28 stateless',
      async (token: string) => {
        const c = await connectModern(k, token);
        return {
          list: () => c.client.listTools(),
          call: (name: string) => c.client.callTool({ name, arguments: {} }),
          close: () => c.close(),
        };
      },
    ],
  ] as const) {
    it(`${label}: one write carries the request's AUTH_OK then its call's STARTED`, async () => {
      const c = await connect(startupToken(k.stateDir, 'ada'));
      try {
        const from = writes.length;
        await c.call('infra_health');
        const mine = writes.slice(from);
        const started = mine.filter((w) => w.some((r) => r.status === 'STARTED'));
        assert.equal(started.length, 1, JSON.stringify(mine.map(statuses)));
        const [auth, start] = started[0] as Rec[];
        assert.deepEqual(statuses(started[0] as Rec[]), ['AUTH:AUTH_OK', 'ACTIONS:STARTED']);
        assert.equal(auth?.client, 'ada');
        assert.equal(auth?.path, '/mcp');
        assert.equal(start?.tool_name, 'infra_health');
        // Nothing of this call was written before the pair (a client's own GET stream may have its
        // AUTH_OK there); the outcome goes on its own, after.
        const at = mine.indexOf(started[0] as Rec[]);
        for (const w of mine.slice(0, at)) assert.deepEqual(statuses(w), ['AUTH:AUTH_OK']);
        assert.ok(
          mine.some((w) => w.some((r) => r.call_id === start?.call_id && r.status === 'ALLOWED')),
          'the outcome follows',
        );
      } finally {
        await c.close();
      }
    });

    it(`${label}: a request without a tool call still has its AUTH_OK, alone, before its answer`, async () => {
      const c = await connect(startupToken(k.stateDir, 'ada'));
      try {
        const from = writes.length;
        await c.list();
        // Records of other events (a previous client's session ending) may come and go alongside.
        const mine = writes.slice(from).filter((w) => w.some((r) => r.status === 'AUTH_OK'));
        assert.ok(mine.length >= 1);
        for (const w of mine) assert.deepEqual(statuses(w), ['AUTH:AUTH_OK'], JSON.stringify(w));
      } finally {
        await c.close();
      }
    });

    it(`${label}: a refused call's AUTH_OK goes out with, and before, its refusal`, async () => {
      const c = await connect(startupToken(k.stateDir, 'otto'));
      try {
        const from = writes.length;
        const r = (await c.call('infra_no_such_tool').catch((err: unknown) => err)) as unknown;
        assert.ok(r);
        const mine = writes.slice(from).flat();
        const at = mine.findIndex((x) => x.event === 'ACTIONS' && x.tool_name === 'infra_no_such_tool');
        assert.ok(at > 0, JSON.stringify(mine.map((x) => x.status)));
        assert.equal(mine[at - 1]?.status, 'AUTH_OK');
        assert.equal(mine[at - 1]?.client, 'otto');
        assert.equal(
          mine.filter((x) => x.status === 'STARTED').length,
          0,
          'a refused call never reaches its handler',
        );
      } finally {
        await c.close();
      }
    });
  }
});
