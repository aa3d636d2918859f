// What a tool call did on a node, as audit.log records it, and what it cost in rate limits: through real
// MCP clients against the lab. Each tool family's STARTED record names the operation about to be done,
// its outcome record lists the requests really sent and the address each went to; hostile text is
// bounded and escaped, no secret is written; every request to a node counts against its service's
// window, whatever tool sends it (check_connectivity reports a spent service instead of trying it).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import { AUDIT_TEXT_MAX } from '../../../kernel/mcp/audit-text.ts';
import {
  labCredential,
  startProductStack,
  type ProductStack,
  type Role,
} from '../../helpers/product-stack.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { labPasswords } from '../../reliability/fuzz/support/lab-secrets.ts';

type Rec = Record<string, unknown>;
interface NodeReq {
  service: string;
  operation: string;
  address: string;
  count: number;
}

/** Characters no audit line may carry raw (forged lines, terminal control, hidden text). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/;

const SQL_SECRET = 'Sql-Literal-Secret-4711';
const CUPI_SECRET = 'Cupi-Body-Secret-0815';

describe('node requests: audited as sent, charged to their service', () => {
  const state = tempStateDir('ucmcp-noderq-');
  let s: ProductStack;
  let cucm: LabNodeInfo;
  let cuc: LabNodeInfo;
  let imp: LabNodeInfo;
  let phone: LabNodeInfo;

  before(async () => {
    // Narrowed windows (client.json): the operator's RIS, and the auditor's AXL, RIS and SSH.
    const narrow = (client: string, cucmLimits: Record<string, number>): void => {
      mkdirSync(join(state.dir, 'clients', client), { recursive: true });
      const rateLimits = {
        cucm: Object.fromEntries(
          Object.entries(cucmLimits).map(([svc, limit]) => [svc, { limit, windowSeconds: 3600 }]),
        ),
      };
      writeFileSync(
        join(state.dir, 'clients', client, 'client.json'),
        JSON.stringify({ redirect_uris: [], allowlists: {}, rateLimits }),
      );
    };
    narrow('operator1', { ris: 2 });
    narrow('auditor1', { axl: 2, ris: 2, ssh: 2 });
    s = await startProductStack({ stateDir: state.dir, seedVaultFor: ['admin', 'operator', 'auditor'] });
    cucm = s.node('cucm');
    cuc = s.node('cuc');
    imp = s.node('imp');
    phone = s.node('phone');
  });
  after(async () => {
    await s?.stop();
    state.cleanup();
  });

  const at = (n: LabNodeInfo, port: number | undefined): string => `${n.host}:${String(port)}`;

  /** Calls a tool and returns its answer with the STARTED and outcome records of that call. */
  async function traced(role: Role, tool: string, args: Rec) {
    const mark = s.mark();
    const r = await s.mcp[role].call(tool, args);
    const mine = s.auditSince(mark).filter((x) => x.event === 'ACTIONS' && x.tool_name === tool);
    const outcome = mine.find((x) => x.result !== undefined);
    assert.ok(outcome, `${tool}: no outcome record`);
    const started = mine.find((x) => x.status === 'STARTED' && x.call_id === outcome.call_id);
    const sent = (outcome.node_requests ?? []) as NodeReq[];
    return { r, started, outcome, sent, mark };
  }

  function has(sent: NodeReq[], service: string, operation: string, address: string): void {
    assert.ok(
      sent.some((q) => q.service === service && q.operation === operation && q.address === address),
      `${service} ${operation} to ${address} in ${JSON.stringify(sent)}`,
    );
  }

  it('AXL: the operation on both records, the node address on the outcome; getPhone and updateCredentialPolicy apart', async () => {
    const axl = at(cucm, cucm.ports.https);
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    const get = await traced('admin', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'getPhone',
      args: { name: phone.name },
    });
    assert.equal(get.started?.operation, 'getPhone');
    assert.equal(get.started?.detail, `args: name=${phone.name}`);
    assert.equal(get.outcome.operation, 'getPhone');
    has(get.sent, 'axl', 'getPhone', axl);

    const policy = await traced('admin', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'updateCredentialPolicy',
      args: { name: 'Default Credential Policy', failedLogon: '3' },
    });
    assert.equal(policy.started?.operation, 'updateCredentialPolicy');
    assert.equal(policy.outcome.operation, 'updateCredentialPolicy');
    has(policy.sent, 'axl', 'updateCredentialPolicy', axl);
    assert.notEqual(policy.started?.operation, get.started?.operation);

    // Refused by the operator's allowlist: the refusal says what was refused, and nothing was sent.
    const denied = await traced('operator', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'updateCredentialPolicy',
      args: { name: 'Default Credential Policy' },
    });
    assert.equal(denied.outcome.result, 'DENIED');
    assert.equal(denied.outcome.operation, 'updateCredentialPolicy');
    assert.equal(denied.outcome.node_requests, undefined);

    const version = await traced('admin', 'cucm_get_version', { host: cucm.name });
    assert.equal(version.started?.operation, 'getCCMVersion');
    has(version.sent, 'axl', 'getCCMVersion', axl);

    const toolkit = await traced('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    assert.equal(toolkit.started?.operation, 'GET /plugins/axlsqltoolkit.zip');
    has(toolkit.sent, 'axl', 'GET /plugins/axlsqltoolkit.zip', axl);

    const ops = await traced('admin', 'cucm_list_axl_operations', { host: cucm.name, pattern: 'Phone' });
    assert.equal(ops.started?.operation, 'list operations');
    assert.equal(ops.started?.detail, 'pattern=Phone schema negotiated with the node');

    await s.ok('admin', 'imp_download_axl_toolkit', { host: imp.name });
    const impVersion = await traced('admin', 'imp_get_version', { host: imp.name });
    has(impVersion.sent, 'axl', 'getCCMVersion', at(imp, imp.ports.https));
  });

  it('AXL SQL: the statement is recorded without its literals', async () => {
    const sql = `select name from device where name = '${SQL_SECRET}' or description = "${SQL_SECRET}"`;
    const q = await traced('admin', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'executeSQLQuery',
      args: { sql },
    });
    assert.equal(q.started?.operation, 'executeSQLQuery');
    assert.equal(q.started?.detail, `sql: select name from device where name = '…' or description = "…"`);
    has(q.sent, 'axl', 'executeSQLQuery', at(cucm, cucm.ports.https));
  });

  it('RIS, VOS CLI, phone and connectivity: operation, criteria and the address of each service', async () => {
    await s.ok('admin', 'cucm_download_ris_toolkit', { host: cucm.name });
    const ris = await traced('admin', 'cucm_risport_query', {
      host: cucm.name,
      operation: 'selectCmDevice',
      device_class: 'Phone',
      select_items: ['SEP*'],
    });
    assert.equal(ris.started?.operation, 'selectCmDevice');
    assert.match(String(ris.started?.detail), /^select_by=Name items=SEP\* class=Phone status=Any /);
    has(ris.sent, 'ris', 'selectCmDevice', at(cucm, cucm.ports.https));

    const cli = await traced('admin', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'show   version active',
    });
    assert.equal(cli.started?.operation, 'show version active');
    has(cli.sent, 'ssh', 'show version active', at(cucm, cucm.ports.ssh));

    const shot = await traced('admin', 'cucm_phone_screenshot', { host: phone.name });
    assert.equal(shot.started?.operation, 'GET /CGI/Screenshot');
    has(shot.sent, 'phone', 'GET /CGI/Screenshot', at(phone, phone.ports.http));

    const check = await traced('admin', 'cucm_check_connectivity', { host: cucm.name });
    assert.equal(check.started?.operation, 'connectivity check: AXL, RIS, SSH');
    has(check.sent, 'axl', 'getCCMVersion', at(cucm, cucm.ports.https));
    has(check.sent, 'ris', 'GET /realtimeservice2/services/RISService70?wsdl', at(cucm, cucm.ports.https));
    has(check.sent, 'ssh', 'login check', at(cucm, cucm.ports.ssh));
  });

  it('CUPI: method and path on both records, query and body names only, never their values', async () => {
    const cupi = at(cuc, cuc.ports.https);
    const list = await traced('admin', 'cuc_cupi_call', {
      host: cuc.name,
      method: 'GET',
      path: '/vmrest/users',
      query: { rowsPerPage: 2 },
    });
    assert.equal(list.started?.operation, 'GET /vmrest/users');
    assert.equal(list.started?.detail, 'query: rowsPerPage');
    has(list.sent, 'cupi', 'GET /vmrest/users', cupi);

    const put = await traced('admin', 'cuc_cupi_call', {
      host: cuc.name,
      method: 'PUT',
      path: '/vmrest/users/no-such-user',
      body: { DisplayName: CUPI_SECRET, Pin: CUPI_SECRET },
    });
    assert.equal(put.started?.operation, 'PUT /vmrest/users/no-such-user');
    assert.equal(put.started?.detail, 'body: DisplayName, Pin');
    // The change gate reads the object first: it does not exist, so the PUT is never sent.
    has(put.sent, 'cupi', 'GET /vmrest/users/no-such-user', cupi);
    assert.ok(!JSON.stringify(put.sent).includes('PUT /vmrest'), JSON.stringify(put.sent));

    const page = await traced('admin', 'cuc_cupi_list', {
      host: cuc.name,
      resource: 'users',
      rowsPerPage: 5,
    });
    assert.equal(page.started?.operation, 'GET /vmrest/users');
    has(page.sent, 'cupi', 'GET /vmrest/users', cupi);

    const version = await traced('admin', 'cuc_get_version', { host: cuc.name });
    has(version.sent, 'cupi', 'GET /vmrest/version/product', cupi);
  });

  it('hostile text (newlines, ANSI, U+2028, 10 KB) is bounded and escaped on every record, and what XML cannot carry is not sent', async () => {
    const hostile = `x\n\u001b[31m\u2028\u202e${'A'.repeat(10_000)}`;
    const sentBefore = s.lab.state.log.requests.length;
    const refused = await traced('admin', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'getPhone',
      args: { name: hostile },
    });
    assert.equal((refused.r.structuredContent as Rec).error, 'BAD_REQUEST');
    assert.equal(s.lab.state.log.requests.length, sentBefore, 'ESC cannot be carried by XML: nothing sent');

    // Newlines and U+2028 are valid XML: sent, and still inert in the log.
    const sql = `select name from device\n-- \u2028${'B'.repeat(10_000)}`;
    const long = await traced('admin', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'executeSQLQuery',
      args: { sql },
    });
    const items = [`SEP\n\u2028${'C'.repeat(250)}`, '\u2029*'];
    const ris = await traced('admin', 'cucm_risport_query', { host: cucm.name, select_items: items });

    const raw = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8').split('\n');
    for (const call of [refused, long, ris]) {
      const id = String(call.outcome.call_id);
      const lines = raw.filter((l) => l.includes(id));
      assert.ok(lines.length >= 2, `STARTED and outcome of ${String(call.outcome.tool_name)}`);
      for (const line of lines) assert.doesNotMatch(line, RAW_UNSAFE);
      for (const rec of [call.started, call.outcome]) {
        for (const field of ['operation', 'detail'] as const) {
          const v = rec?.[field];
          if (v === undefined) continue;
          assert.ok(String(v).length <= AUDIT_TEXT_MAX, `${field}: ${String(v).length}`);
          assert.doesNotMatch(String(v), RAW_UNSAFE);
        }
      }
    }
    assert.match(String(refused.started?.detail), /^args: name=x\\u000A\\u001B\[31m\\u2028\\u202EA+$/);
    assert.match(
      String(long.started?.detail),
      /^sql: select name from device\\u000A-- \\u2028B+…\[10\d{3} chars\]$/,
    );
    assert.match(String(ris.started?.detail), /^select_by=Name items=SEP\\u000A\\u2028C+/);
  });

  it('no password, PIN or secret literal reaches audit.log, credentials stored through the tools included', async () => {
    await s.ok('admin', 'cucm_update_credentials', labCredential(s.lab, cucm, 'axl'));
    await s.ok('admin', 'cucm_os_update_credentials', labCredential(s.lab, cucm, 'os'));
    await s.ok('admin', 'cucm_get_version', { host: cucm.name });
    const text = readFileSync(join(state.dir, 'logs', 'audit.log'), 'utf8');
    const needles = { ...labPasswords(s.lab.info), sql: SQL_SECRET, cupi: CUPI_SECRET };
    for (const [what, secret] of Object.entries(needles))
      assert.ok(!text.includes(secret), `${what} appears in audit.log`);
  });

  it('check_connectivity spends one request of each service it tries: the auditor has 2 of each', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await s.ok('auditor', 'cucm_check_connectivity', { host: cucm.name });
      assert.equal(r.ok, true, JSON.stringify(r));
    }
    const perms = await s.ok('auditor', 'infra_get_my_permissions');
    const limits = perms.rateLimits as Record<string, Record<string, { remaining: number }>>;
    assert.deepEqual(
      ['axl', 'ris', 'ssh'].map((svc) => [svc, limits.cucm?.[svc]?.remaining]),
      [
        ['axl', 0],
        ['ris', 0],
        ['ssh', 0],
      ],
    );

    const before = s.lab.state.log.requests.length + s.lab.state.log.commands.length;
    const spent = await traced('auditor', 'cucm_check_connectivity', { host: cucm.name });
    const answer = spent.r.structuredContent as { ok: boolean; services: Record<string, Rec> };
    assert.equal(answer.ok, false);
    for (const svc of ['axl', 'ris', 'ssh']) {
      assert.equal(answer.services[svc]?.error, 'RATE_LIMITED', JSON.stringify(answer.services[svc]));
      assert.ok(Number(answer.services[svc]?.retry_after_s) > 0);
    }
    assert.equal(s.lab.state.log.requests.length + s.lab.state.log.commands.length, before, 'nothing sent');
    assert.equal(spent.outcome.result, 'ALLOWED');
    const limited = s
      .auditSince(spent.mark)
      .filter((x) => x.event === 'RATE_LIMITED' && x.call_id === spent.outcome.call_id);
    assert.deepEqual(limited.map((x) => x.service).sort(), ['axl', 'ris', 'ssh']);
    assert.ok(limited.every((x) => x.client === 'auditor1' && x.tool_name === 'cucm_check_connectivity'));
  });

  it('a service window spent by another tool shows in check_connectivity as that service rate limited', async () => {
    for (let i = 0; i < 2; i++)
      await s.ok('operator', 'cucm_risport_query', { host: cucm.name, select_items: ['SEP*'] });
    const third = await s.fails('operator', 'cucm_risport_query', { host: cucm.name });
    assert.equal(third.error, 'RATE_LIMITED');

    const r = await s.ok('operator', 'cucm_check_connectivity', { host: cucm.name });
    const services = r.services as Record<string, Rec>;
    assert.equal(services.ris?.ok, false);
    assert.equal(services.ris?.error, 'RATE_LIMITED');
    assert.ok(Number(services.ris?.retry_after_s) > 0);
    assert.equal(services.axl?.ok, true, JSON.stringify(services.axl));
    assert.equal(services.ssh?.ok, true, JSON.stringify(services.ssh));
    assert.equal(r.ok, false);
  });
});
