// Audit first, branch by branch, on the real kernel with a real MCP client: the audit log is made to
// refuse exactly one kind of record (the call's STARTED record, its outcome, a plugin's own record) and
// the answer, the node and app.log are checked for each.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AuditEntry } from '../../../kernel/audit/audit-log.ts';
import { AuditUnavailableError } from '../../../kernel/errors/index.ts';
import { prepareCucm, startProductStack, type ProductStack } from '../../helpers/product-stack.ts';

describe('audit first in the tool runner', () => {
  let s: ProductStack;
  let refuse: ((e: AuditEntry) => boolean) | undefined;
  const host = (): string => s.node('cucm').name;

  before(async () => {
    s = await startProductStack();
    await prepareCucm(s);
    const audit = s.k.kernel.runtime.audit;
    const write = audit.write.bind(audit);
    audit.write = (e: AuditEntry) => {
      if (refuse?.(e))
        throw new AuditUnavailableError('the audit log cannot be written; the operation was refused');
      return write(e);
    };
  });
  after(async () => {
    refuse = undefined;
    await s.stop();
  });

  const isStarted = (e: AuditEntry): boolean => e.event === 'ACTIONS' && e.status === 'STARTED';
  const isOutcome = (e: AuditEntry): boolean => e.event === 'ACTIONS' && e.result !== undefined;

  it('a call whose STARTED record cannot be written never reaches its handler', async () => {
    const sent = s.lab.state.log.requests.length;
    const commands = s.lab.state.log.commands.length;
    refuse = isStarted;
    try {
      for (const [tool, args] of [
        ['cucm_get_version', { host: host() }],
        ['cucm_os_run_command', { host: host(), command: 'show status' }],
        ['cucm_axl_call', { host: host(), operation: 'listPhone', args: { searchCriteria: { name: '%' } } }],
      ] as const) {
        const r = await s.fails('operator', tool, args);
        assert.equal(r.error, 'AUDIT_UNAVAILABLE', tool);
      }
    } finally {
      refuse = undefined;
    }
    assert.equal(s.lab.state.log.requests.length, sent, 'no request reached the node');
    assert.equal(s.lab.state.log.commands.length, commands, 'no command reached the node');
    // The same calls go through once the log takes records again.
    await s.ok('operator', 'cucm_get_version', { host: host() });
  });

  it('a call that ran but whose outcome cannot be written says so, with its call_id', async () => {
    const mark = s.mark();
    refuse = isOutcome;
    let r: { error: string; message: string };
    try {
      r = await s.fails('operator', 'cucm_get_version', { host: host() });
    } finally {
      refuse = undefined;
    }
    assert.equal(r.error, 'AUDIT_UNAVAILABLE');
    assert.match(r.message, /^cucm_get_version ran and completed, but its outcome could not be written/);
    const started = s.auditSince(mark).filter((x) => x.tool_name === 'cucm_get_version');
    assert.deepEqual(
      started.map((x) => x.status),
      ['STARTED'],
    );
    assert.ok(r.message.endsWith(`call_id ${String(started[0]?.call_id)}`));
    const appLog = readFileSync(join(s.k.stateDir, 'logs', 'app.log'), 'utf8');
    assert.ok(
      appLog.includes(String(started[0]?.call_id)) &&
        appLog.includes('the outcome of a tool call could not be written to the audit log'),
      'app.log keeps what is known of the call',
    );
  });

  it("a plugin's own record failing fails the call with AUDIT_UNAVAILABLE", async () => {
    // Storing credentials writes a CREDENTIAL record; the vault refuses the change when it cannot.
    refuse = (e) => e.event === 'CREDENTIAL';
    let r: { error: string; message: string };
    try {
      r = await s.fails('admin', 'cucm_store_credentials', {
        host: 'audit-first.example.com',
        username: 'axladmin',
        password: 'never-stored-1',
      });
    } finally {
      refuse = undefined;
    }
    assert.equal(r.error, 'AUDIT_UNAVAILABLE');
    const listed = await s.ok('admin', 'cucm_list_credentials');
    assert.ok(!JSON.stringify(listed).includes('audit-first.example.com'), 'nothing was stored');
  });

  it('a refusal stays a refusal when its record cannot be written', async () => {
    refuse = isOutcome;
    let r: { error: string; message: string };
    try {
      r = await s.fails('auditor', 'cucm_axl_call', { host: host(), operation: 'removePhone', args: {} });
    } finally {
      refuse = undefined;
    }
    assert.equal(r.error, 'ProfilePermissionError');
  });

  it('every record of a call that reached its handler comes as STARTED then its outcome', async () => {
    const mark = s.mark();
    await s.ok('auditor', 'cucm_get_version', { host: host() });
    await s.fails('auditor', 'cucm_axl_call', { host: host(), operation: 'removePhone', args: {} });
    const recs = s.auditSince(mark).filter((x) => x.event === 'ACTIONS');
    assert.deepEqual(
      recs.map((x) => [x.tool_name, x.status]),
      [
        ['cucm_get_version', 'STARTED'],
        ['cucm_get_version', 'ALLOWED'],
        ['cucm_axl_call', 'DENIED'],
      ],
    );
    assert.equal(recs[0]?.call_id, recs[1]?.call_id);
    assert.notEqual(recs[1]?.call_id, recs[2]?.call_id);
    assert.equal(recs[0]?.result, undefined, 'STARTED carries no result: one result per call');
  });
});
