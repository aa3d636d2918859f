import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  TaskStatusNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { connectModern } from '../../helpers/mcp-client-v2.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

// MCP tasks through real clients: the SDK v1 client's task API on 2025-11-25 sessions, and raw
// JSON-RPC on 2026-07-28 (the SDK v2 client refuses a `resultType: "task"` answer: it has no task
// API yet). The lab's AXL publisher answers each AXL request after AXL_DELAY_MS, so a toolkit download
// (which asks the node its AXL version first) stays running long enough to be watched and cancelled.
const MODERN = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';
const AXL_DELAY_MS = 1500;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Rpc {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MCP tasks: toolkit downloads and PDF export outlive their request', () => {
  let s: ProductStack;
  let admin: ConnectedClient;
  let other: ConnectedClient;
  let id = 1;
  const host = () => s.node('cucm').name;

  before(async () => {
    s = await startProductStack({
      lab: { axlServiceTimeMs: AXL_DELAY_MS },
      seedVaultFor: ['admin', 'operator', 'auditor'],
      // Chromium on a busy test machine may need more than the default minute for a page.
      env: { MCP_TASKS_MAX_PER_CLIENT: '2', REPORT_PDF_TIMEOUT_MS: '300000' },
    });
    admin = s.mcp.admin;
    // A client that declares task support itself (the server's support is what the SDK checks).
    other = await connectMcp(s.k, startupToken(s.k.stateDir, 'operator1'));
  });
  after(async () => {
    await other?.close();
    await s?.stop();
  });

  /** One 2026-07-28 request as a client would send it, raw; `ext`: it declares the Tasks extension. */
  async function modern(
    client: string,
    method: string,
    params: Record<string, unknown>,
    ext = true,
  ): Promise<Rpc> {
    const name = (params.name ?? params.taskId) as string | undefined;
    const res = await s.k.fetch(`${s.k.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${startupToken(s.k.stateDir, client)}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
        ...(name !== undefined ? { 'mcp-name': name } : {}),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: id++,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientInfo': { name: 'raw-tasks', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': ext ? { extensions: { [EXT]: {} } } : {},
          },
        },
      }),
    });
    const text = await res.text();
    if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
      return JSON.parse(text) as Rpc;
    const messages = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as Rpc & { id?: number });
    return messages.find((m) => m.result !== undefined || m.error !== undefined) as Rpc;
  }

  /** Polls a 2026-07-28 task until it is finished; returns the last tasks/get result. */
  async function pollModern(client: string, taskId: string): Promise<Record<string, unknown>> {
    // Generous: a PDF export on a busy machine (Chromium) takes a while; the test is not timed.
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      const r = await modern(client, 'tasks/get', { taskId });
      assert.ok(r.result, JSON.stringify(r.error));
      if (['completed', 'failed', 'cancelled'].includes(r.result.status as string)) return r.result;
      await sleep(250);
    }
    throw new Error(`task ${taskId} did not finish`);
  }

  const actions = (mark: number, tool: string) =>
    s.auditSince(mark).filter((r) => r.event === 'ACTIONS' && r.tool_name === tool);

  it('2025-11-25: the tools are offered as tasks, and a download runs as one through the SDK task API', async () => {
    const caps = admin.client.getServerCapabilities() as { tasks?: { requests?: { tools?: unknown } } };
    assert.ok(caps.tasks?.requests?.tools, 'the server declares task-augmented tools/call');
    const { tools } = await admin.client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    for (const t of [
      'cucm_download_axl_toolkit',
      'imp_download_axl_toolkit',
      'cucm_download_ris_toolkit',
      'common_export_report_pdf',
    ])
      assert.equal(support[t], 'optional', t);
    assert.equal(support.cucm_get_version, undefined, 'a quick tool is not offered as a task');

    const mark = s.mark();
    // The session that created the task hears its status changes.
    const notified: string[] = [];
    admin.client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      notified.push(n.params.status);
    });
    const seen: string[] = [];
    let result: CallToolResult | undefined;
    for await (const m of admin.client.experimental.tasks.callToolStream(
      { name: 'cucm_download_axl_toolkit', arguments: { host: host() } },
      CallToolResultSchema,
    )) {
      seen.push(m.type === 'taskStatus' ? `status:${m.task.status}` : m.type);
      if (m.type === 'error') throw m.error;
      if (m.type === 'result') result = m.result as CallToolResult;
    }
    assert.equal(seen[0], 'taskCreated');
    assert.ok(seen.includes('status:working'), seen.join());
    assert.ok(seen.includes('status:completed'), seen.join());
    assert.ok(result && result.isError === undefined, JSON.stringify(result));
    for (let i = 0; i < 50 && !notified.includes('completed'); i++) await sleep(20);
    assert.ok(notified.includes('completed'), `status notifications: ${notified.join()}`);

    // The same result as the plain call, and the same audit records.
    const plainMark = s.mark();
    const plain = await admin.call('cucm_download_axl_toolkit', { host: host() });
    assert.deepEqual(
      Object.keys(result.structuredContent ?? {}).sort(),
      Object.keys(plain.structuredContent ?? {}).sort(),
    );
    assert.deepEqual(result.structuredContent, plain.structuredContent);
    const tasked = s
      .auditSince(mark)
      .slice(0, plainMark - mark)
      .filter((r) => r.event === 'ACTIONS' && r.tool_name === 'cucm_download_axl_toolkit');
    const direct = actions(plainMark, 'cucm_download_axl_toolkit');
    assert.deepEqual(
      tasked.map((r) => r.status),
      ['STARTED', 'ALLOWED'],
    );
    assert.deepEqual(
      direct.map((r) => r.status),
      ['STARTED', 'ALLOWED'],
    );
    assert.deepEqual(Object.keys(tasked[1] as object).sort(), Object.keys(direct[1] as object).sort());
    assert.equal(tasked[0]?.call_id, tasked[1]?.call_id);
  });

  it('2026-07-28: a client declaring the extension gets a task handle, polls it to the result', async () => {
    const created = await modern('admin1', 'tools/call', {
      name: 'cucm_download_ris_toolkit',
      arguments: { host: host() },
    });
    assert.equal(created.result?.resultType, 'task', JSON.stringify(created));
    const taskId = created.result?.taskId as string;
    assert.match(taskId, /^[A-Za-z0-9_-]{24}$/);
    assert.equal(created.result?.status, 'working');
    const done = await pollModern('admin1', taskId);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const result = done.result as { structuredContent: Record<string, unknown>; isError?: boolean };
    const plain = await admin.call('cucm_download_ris_toolkit', { host: host() });
    assert.deepEqual(result.structuredContent, plain.structuredContent);
    assert.equal(result.isError, undefined);

    // tasks/result and tasks/list do not exist on this revision.
    const gone = await modern('admin1', 'tasks/result', { taskId });
    assert.equal(gone.error?.code, -32601);
  });

  it('a cancelled download stops: cancelled, nothing fetched after it, nothing left in the cache', async () => {
    const cache = join(s.k.stateDir, 'schema-cache', 'axl');
    const downloadsBefore = s.lab.state.cucm.toolkitDownloads;
    const listing = () => (existsSync(cache) ? readdirSync(cache).sort() : []);
    const cachedBefore = listing();
    const mark = s.mark();

    // 2025-11-25, through the SDK's request with the task parameter.
    const created = await admin.client.request(
      {
        method: 'tools/call',
        params: { name: 'cucm_download_axl_toolkit', arguments: { host: host() }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    await sleep(AXL_DELAY_MS / 3);
    const cancelled = await admin.client.experimental.tasks.cancelTask(taskId);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await admin.client.experimental.tasks.getTask(taskId)).status, 'cancelled');
    await assert.rejects(
      admin.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema),
      /cancelled/,
    );

    // 2026-07-28, raw.
    const modernTask = await modern('admin1', 'tools/call', {
      name: 'cucm_download_axl_toolkit',
      arguments: { host: host() },
    });
    const modernId = modernTask.result?.taskId as string;
    await sleep(AXL_DELAY_MS / 3);
    const ack = await modern('admin1', 'tasks/cancel', { taskId: modernId });
    assert.equal(ack.result?.resultType, 'complete', JSON.stringify(ack));
    assert.equal((await modern('admin1', 'tasks/get', { taskId: modernId })).result?.status, 'cancelled');

    // Both calls ran as calls do (audited), stopped, and the node never sent a toolkit after them.
    await sleep(AXL_DELAY_MS * 2);
    const recs = actions(mark, 'cucm_download_axl_toolkit');
    const startedIds = recs.filter((r) => r.status === 'STARTED').map((r) => r.call_id);
    const outcomes = recs.filter((r) => r.status !== 'STARTED');
    assert.equal(startedIds.length, 2, JSON.stringify(recs));
    assert.deepEqual(
      outcomes.map((r) => r.call_id).sort(),
      [...startedIds].sort(),
      'each call has its outcome',
    );
    for (const r of outcomes) assert.notEqual(r.error, 'INTERNAL_ERROR', 'a cancellation is no server fault');
    assert.equal(s.lab.state.cucm.toolkitDownloads, downloadsBefore, 'no toolkit was fetched');
    assert.deepEqual(listing(), cachedBefore, 'the cache is as it was: no work folder, no new version');
  });

  it("another client can neither see nor cancel a client's task, on either revision", async () => {
    const created = await modern('admin1', 'tools/call', {
      name: 'cucm_download_axl_toolkit',
      arguments: { host: host() },
    });
    const taskId = created.result?.taskId as string;
    try {
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update'] as const) {
        const r = await modern('operator1', method, {
          taskId,
          ...(method === 'tasks/update' ? { inputResponses: {} } : {}),
        });
        assert.equal(r.error?.code, -32602, `${method}: ${JSON.stringify(r)}`);
        assert.match(r.error.message, /NOT_FOUND/);
      }
      await assert.rejects(other.client.experimental.tasks.getTask(taskId), /NOT_FOUND/);
      await assert.rejects(other.client.experimental.tasks.cancelTask(taskId), /NOT_FOUND/);
      await assert.rejects(
        other.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema),
        /NOT_FOUND/,
      );
      const { tasks } = await other.client.experimental.tasks.listTasks();
      assert.ok(!tasks.some((t) => t.taskId === taskId));
      // Its owner still sees it working: nobody else's request touched it.
      assert.equal((await modern('admin1', 'tasks/get', { taskId })).result?.status, 'working');
      // And a client that does not declare the extension may not poll at all (-32021).
      const undeclared = await modern('admin1', 'tasks/get', { taskId }, false);
      assert.equal(undeclared.error?.code, -32021);
    } finally {
      await modern('admin1', 'tasks/cancel', { taskId });
    }
  });

  it('a client holds at most MCP_TASKS_MAX_PER_CLIENT running tasks: the next is TASK_LIMIT', async () => {
    const started: string[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const r = await modern('admin1', 'tools/call', {
          name: 'cucm_download_axl_toolkit',
          arguments: { host: host() },
        });
        assert.equal(r.result?.resultType, 'task', JSON.stringify(r));
        started.push(r.result?.taskId as string);
      }
      const refused = await modern('admin1', 'tools/call', {
        name: 'cucm_download_axl_toolkit',
        arguments: { host: host() },
      });
      assert.ok(refused.error, JSON.stringify(refused));
      assert.match(refused.error.message, /^TASK_LIMIT: /);
      await assert.rejects(
        admin.client.request(
          {
            method: 'tools/call',
            params: { name: 'cucm_download_axl_toolkit', arguments: { host: host() }, task: {} },
          },
          CreateTaskResultSchema,
        ),
        /TASK_LIMIT/,
      );
      // Another client is not held back by this one's tasks.
      const r = await modern('admin1', 'tasks/get', { taskId: started[0] as string });
      assert.equal(r.result?.status, 'working');
    } finally {
      for (const taskId of started) await modern('admin1', 'tasks/cancel', { taskId });
    }
    // Finished tasks make room: a new one is accepted once they are cancelled.
    const again = await modern('admin1', 'tools/call', {
      name: 'cucm_download_ris_toolkit',
      arguments: { host: host() },
    });
    assert.equal(again.result?.resultType, 'task', JSON.stringify(again));
    await pollModern('admin1', again.result?.taskId as string);
  });

  it('a client without tasks gets the plain call, on either revision', async () => {
    const plainModern = await modern(
      'admin1',
      'tools/call',
      { name: 'cucm_download_ris_toolkit', arguments: { host: host() } },
      false,
    );
    assert.equal(plainModern.result?.resultType, 'complete');
    assert.ok(Array.isArray(plainModern.result?.content));
    const v2 = await connectModern(s.k, startupToken(s.k.stateDir, 'admin1'));
    try {
      const r = (await v2.client.callTool({
        name: 'cucm_download_ris_toolkit',
        arguments: { host: host() },
      })) as CallToolResult;
      assert.equal(r.isError, undefined);
      assert.equal((r.structuredContent as { host: string }).host, host());
    } finally {
      await v2.close();
    }
    // 2025-11-25 without the task parameter: the SDK's plain callTool.
    const plain = await admin.call('cucm_download_ris_toolkit', { host: host() });
    assert.equal(plain.isError, undefined);
    // A quick tool asked as a task on 2025-11-25 (not offered as one) is refused, -32601.
    await assert.rejects(
      admin.client.request(
        { method: 'tools/call', params: { name: 'cucm_get_version', arguments: { host: host() }, task: {} } },
        CreateTaskResultSchema,
      ),
      /does not run as a task/,
    );
  });

  it(
    'a PDF export runs as a task on both revisions and its result is the plain result',
    { skip: existsSync(CHROMIUM) ? false : `needs Chromium at ${CHROMIUM}` },
    async () => {
      const w = await admin.call('common_write_report', {
        name: 'task.md',
        content: '# Tasks\n\nA report exported as a task.\n',
        mode: 'create',
      });
      assert.equal(w.isError, undefined, JSON.stringify(w.structuredContent));
      const seen: string[] = [];
      let legacy: CallToolResult | undefined;
      for await (const m of admin.client.experimental.tasks.callToolStream(
        { name: 'common_export_report_pdf', arguments: { name: 'task.md' } },
        CallToolResultSchema,
      )) {
        if (m.type === 'taskCreated') seen.push(m.task.taskId);
        if (m.type === 'result') legacy = m.result as CallToolResult;
      }
      // A failed task's result (isError) is still what tasks/result returns: say why.
      legacy ??= (await admin.client.experimental.tasks.getTaskResult(
        seen[0] as string,
        CallToolResultSchema,
      )) as CallToolResult;
      assert.equal(legacy?.isError, undefined, JSON.stringify(legacy));
      assert.equal((legacy?.structuredContent as { pdf: string }).pdf, 'task.pdf', JSON.stringify(legacy));

      const created = await modern('admin1', 'tools/call', {
        name: 'common_export_report_pdf',
        arguments: { name: 'task.md' },
      });
      assert.equal(created.result?.resultType, 'task', JSON.stringify(created));
      const done = await pollModern('admin1', created.result?.taskId as string);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const modernResult = done.result as { structuredContent: { pdf: string; bytes: number } };
      assert.equal(modernResult.structuredContent.pdf, 'task.pdf', JSON.stringify(done));
      assert.ok(modernResult.structuredContent.bytes > 500);
      assert.deepEqual(
        Object.keys(modernResult.structuredContent).sort(),
        Object.keys(legacy?.structuredContent ?? {}).sort(),
      );
    },
  );
});
