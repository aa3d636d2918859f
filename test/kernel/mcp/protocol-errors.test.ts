// Unknown names as each MCP revision defines them, through real clients of both: a tool that does not
// exist is JSON-RPC -32602 (not a tool result), a tool that exists but is not the caller's stays an
// in-band DENIED refusal (functional spec: audited DENIED); a resource that does not exist is -32002 on
// 2025-11-25 and -32602 on 2026-07-28 (SEP-2164), with the URI as data.uri on both.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { actionOutcomes, startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { connectModern, type ModernClient } from '../../helpers/mcp-client-v2.ts';

interface Refusal {
  code?: number;
  message: string;
  data?: { uri?: string };
}

async function refusal(p: Promise<unknown>): Promise<Refusal> {
  try {
    await p;
  } catch (err) {
    return err as Refusal;
  }
  return assert.fail('answered instead of refused');
}

describe('unknown tools and resources, per revision', () => {
  let k: TestKernel;
  let legacy: ConnectedClient;
  let modern: ModernClient;

  before(async () => {
    k = await startTestKernel({
      env: { AUTH_CLIENTS: 'u:auditor:cucm', AUTH_BCRYPT_COST: '4' },
      license: { products: ['cucm'] },
    });
    legacy = await connectMcp(k, startupToken(k.stateDir, 'u'));
    modern = await connectModern(k, startupToken(k.stateDir, 'u'));
  });

  after(async () => {
    await legacy?.close();
    await modern?.close();
    await k?.stop();
  });

  it('an unknown tool is JSON-RPC -32602 on both revisions, audited ERROR under the name sent', async () => {
    const old = await refusal(legacy.call('cucm_no_such_tool', { host: 'x' }));
    assert.equal(old.code, -32602);
    assert.match(old.message, /NOT_FOUND: no tool named cucm_no_such_tool/);
    const now = await refusal(modern.client.callTool({ name: 'infra_no_such_tool', arguments: {} }));
    assert.equal(now.code, -32602);
    assert.match(now.message, /NOT_FOUND: no tool named infra_no_such_tool/);
    const outcomes = actionOutcomes(k.auditRecords()).filter((r) =>
      String(r.tool_name).endsWith('_no_such_tool'),
    );
    assert.deepEqual(
      outcomes.map((r) => [r.tool_name, r.result, r.error]),
      [
        ['cucm_no_such_tool', 'ERROR', 'NOT_FOUND'],
        ['infra_no_such_tool', 'ERROR', 'NOT_FOUND'],
      ],
    );
  });

  it('a tool that exists but is not the caller’s stays a DENIED tool result on both revisions', async () => {
    // The auditor's list does not show it; the call is still the spec's audited refusal.
    assert.ok(!(await legacy.client.listTools()).tools.some((t) => t.name === 'cucm_store_credentials'));
    const old = await legacy.call('cucm_store_credentials', { host: 'x', username: 'u', password: 'p' });
    assert.equal(old.isError, true);
    assert.equal(old.structuredContent?.error, 'ProfilePermissionError');
    const now = await modern.client.callTool({ name: 'cucm_delete_credentials', arguments: { host: 'x' } });
    assert.equal(now.isError, true);
    assert.equal((now.structuredContent as { error?: string }).error, 'ProfilePermissionError');
    const denied = actionOutcomes(k.auditRecords()).filter((r) => r.result === 'DENIED');
    assert.deepEqual(
      denied.map((r) => r.tool_name),
      ['cucm_store_credentials', 'cucm_delete_credentials'],
    );
  });

  it('an unknown resource is -32002 on 2025-11-25 and -32602 on 2026-07-28, with data.uri', async () => {
    for (const uri of ['cucm://no-such-document', 'nosuch://anything']) {
      const old = await refusal(legacy.client.readResource({ uri }));
      assert.equal(old.code, -32002, uri);
      assert.equal(old.data?.uri, uri);
      assert.match(old.message, /NOT_FOUND/);
      const now = await refusal(modern.client.readResource({ uri }));
      assert.equal(now.code, -32602, uri);
      assert.equal(now.data?.uri, uri);
    }
    // A document that exists is still read on both.
    const [doc] = (await legacy.client.listResources()).resources;
    assert.ok(doc);
    assert.ok((await legacy.client.readResource({ uri: doc.uri })).contents.length > 0);
    assert.ok((await modern.client.readResource({ uri: doc.uri })).contents.length > 0);
  });
});
