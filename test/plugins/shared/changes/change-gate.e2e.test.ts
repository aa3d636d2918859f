// The change gate through real MCP clients against the lab: a dry run sends nothing that changes a node
// (the lab's own write log), a destructive change is confirmed by the person in the client (form-mode
// elicitation, both MCP revisions) or refused when they decline, and the journal and the audit log name
// who confirmed it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  type FetchLike as ModernFetch,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import { startupToken } from '../../../helpers/mcp-client.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';

type Answer = { action: 'accept'; content: { confirm: boolean } } | { action: 'decline' };
type CallResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** Either SDK's client as the tests call it. */
function caller(
  client: { callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
  close: () => Promise<void>,
) {
  return {
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallResult,
    close,
  };
}

describe('the change gate through MCP', { timeout: 240_000 }, () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack({ lab: { scale: 'site' }, prepare: ['cucm'] });
  });
  after(async () => {
    await s?.stop();
  });

  const token = () => startupToken(s.k.stateDir, 'admin1');

  /** A 2025-11-25 client that declares form-mode elicitation and answers each form with `answer`. */
  async function legacyClient(answer: Answer, asked: Record<string, unknown>[]) {
    const transport = new StreamableHTTPClientTransport(new URL(`${s.k.url}/mcp`), {
      fetch: s.k.fetch as unknown as FetchLike,
      requestInit: { headers: { Authorization: `Bearer ${token()}` } },
    });
    const client = new Client(
      { name: 'form-elicitation-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params as Record<string, unknown>);
      return Promise.resolve(answer);
    });
    await client.connect(transport);
    await client.listTools();
    return caller(client, async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    });
  }

  /** The same for MCP 2026-07-28 (the form comes as an input_required result, answered by the SDK). */
  async function modernClient(answer: Answer, asked: Record<string, unknown>[]) {
    const transport = new ModernTransport(new URL(`${s.k.url}/mcp`), {
      fetch: s.k.fetch as unknown as ModernFetch,
      authProvider: { token: () => Promise.resolve(token()) },
    });
    const client = new ModernClient(
      { name: 'form-elicitation-client-v2', version: '2.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params as Record<string, unknown>);
      return Promise.resolve(answer);
    });
    await client.connect(transport);
    await client.listTools();
    return caller(client, () => client.close());
  }

  const phoneArgs = (name: string) => ({
    phone: { name, product: 'Cisco 8865', class: 'Phone', protocol: 'SIP', devicePoolName: 'Default' },
  });
  const writesSince = (from: number) => s.lab.state.log.writes.slice(from);

  it('a dry run reads, answers the diff and a plan, and sends nothing that changes the node', async () => {
    const host = s.node('cucm').name;
    const name = 'SEP00C1A5500101';
    await s.ok('admin', 'cucm_axl_call', { host, operation: 'addPhone', args: phoneArgs(name) });
    const from = s.lab.state.log.writes.length;
    const commands = s.lab.state.log.commands.length;
    const dry = await s.ok('admin', 'cucm_axl_call', {
      host,
      operation: 'updatePhone',
      args: { name, description: 'previewed only' },
      dry_run: true,
    });
    assert.equal(dry.dry_run, true);
    assert.match(String(dry.plan_id), /./);
    const preview = dry.preview as { diff: { path: string; after: unknown }[]; before: unknown };
    assert.ok(preview.diff.some((d) => d.path === 'description' && d.after === 'previewed only'));
    const cli = await s.ok('admin', 'cucm_os_run_command', {
      host,
      command: 'utils service restart Cisco Tftp',
      dry_run: true,
    });
    assert.deepEqual((cli.preview as { before: unknown }).before, {
      service: 'Cisco Tftp',
      state: 'STARTED',
    });
    const svc = await s.ok('admin', 'cucm_service_control', {
      host,
      action: 'stop',
      services: ['Cisco Tftp'],
      dry_run: true,
    });
    assert.deepEqual((svc.preview as { before: unknown }).before, { 'Cisco Tftp': 'Started' });
    assert.deepEqual(writesSince(from), [], 'nothing written to the node');
    // Typed: the shell's own login setup and the read; never the restart.
    const typed = s.lab.state.log.commands.slice(commands).map((c) => c.command);
    assert.ok(typed.includes('utils service list'), typed.join('; '));
    assert.ok(!typed.some((c) => c.includes('restart')), typed.join('; '));
    const got = await s.ok('admin', 'cucm_axl_call', { host, operation: 'getPhone', args: { name } });
    assert.ok(!JSON.stringify(got.result).includes('previewed only'), JSON.stringify(got.result));
  });

  for (const revision of ['2025-11-25', '2026-07-28'] as const)
    it(`${revision}: the person confirms a destructive change in the client; declined, nothing is sent`, async () => {
      const host = s.node('cucm').name;
      const name = revision === '2025-11-25' ? 'SEP00C1A5500201' : 'SEP00C1A5500202';
      await s.ok('admin', 'cucm_axl_call', { host, operation: 'addPhone', args: phoneArgs(name) });
      const remove = { host, operation: 'removePhone', args: { name } };
      const connect = revision === '2025-11-25' ? legacyClient : modernClient;

      const askedNo: Record<string, unknown>[] = [];
      const no = await connect({ action: 'decline' }, askedNo);
      const from = s.lab.state.log.writes.length;
      try {
        const r = await no.call('cucm_axl_call', remove);
        assert.equal(r.isError, true, JSON.stringify(r.structuredContent));
        assert.equal(r.structuredContent?.error, 'CONFIRMATION_DECLINED');
      } finally {
        await no.close();
      }
      assert.equal(askedNo.length, 1);
      assert.match(String(askedNo[0]?.message), new RegExp(`removePhone.*${name}`));
      assert.deepEqual(writesSince(from), [], 'declined: nothing written');
      await s.ok('admin', 'cucm_axl_call', { host, operation: 'getPhone', args: { name } });

      const asked: Record<string, unknown>[] = [];
      const yes = await connect({ action: 'accept', content: { confirm: true } }, asked);
      const mark = s.mark();
      let done: CallResult;
      try {
        done = await yes.call('cucm_axl_call', remove);
      } finally {
        await yes.close();
      }
      assert.equal(done.isError, undefined, JSON.stringify(done.structuredContent));
      const confirmedBy = done.structuredContent?.confirmed_by as { how: string; who: string };
      assert.equal(confirmedBy.how, 'elicitation');
      assert.equal(asked.length, 1);
      const schema = asked[0]?.requestedSchema as { properties: Record<string, { type: string }> };
      assert.equal(schema.properties.confirm?.type, 'boolean');
      assert.deepEqual(
        writesSince(from).map((w) => w.operation),
        ['removePhone'],
        'accepted: the remove was sent, once',
      );
      await s.fails('admin', 'cucm_axl_call', { host, operation: 'getPhone', args: { name } });

      // The journal keeps before and after and who confirmed; the audit record names the confirmation.
      const history = await s.ok('admin', 'cucm_change_history', { object: name });
      const rec = (history.changes as Record<string, unknown>[]).find(
        (c) => c.id === done.structuredContent?.change_id,
      );
      assert.ok(rec, 'journalled');
      assert.equal(rec.operation, 'removePhone');
      assert.equal(rec.outcome, 'applied');
      assert.ok(rec.before && typeof rec.before === 'object', 'its before-image');
      assert.equal(rec.after, null, 'gone when read back');
      assert.deepEqual(rec.confirmed_by, confirmedBy);
      const outcomes = actionOutcomes(s.auditSince(mark)).filter(
        (o) => o.tool_name === 'cucm_axl_call' && o.confirmed_by !== undefined,
      );
      assert.equal(outcomes.length, 1);
      assert.equal((outcomes[0]?.confirmed_by as { how: string }).how, 'elicitation');
      assert.equal(outcomes[0]?.result, 'ALLOWED');
    });

  it('a change made by someone else between preview and apply is refused, nothing sent', async () => {
    const host = s.node('cucm').name;
    const name = 'SEP00C1A5500301';
    await s.ok('admin', 'cucm_axl_call', { host, operation: 'addPhone', args: phoneArgs(name) });
    const remove = { host, operation: 'removePhone', args: { name } };
    const planned = await s.plan('admin', 'cucm_axl_call', remove);
    await s.ok(
      'operator',
      'cucm_axl_call',
      await s.plan('operator', 'cucm_axl_call', {
        host,
        operation: 'updatePhone',
        args: { name, description: 'changed by someone else' },
      }),
    );
    const from = s.lab.state.log.writes.length;
    const refused = await s.fails('admin', 'cucm_axl_call', planned);
    assert.equal(refused.error, 'CHANGED_SINCE_PREVIEW');
    assert.deepEqual(writesSince(from), []);
  });
});
