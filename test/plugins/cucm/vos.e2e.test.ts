// cucm_os_run_command and cucm_check_connectivity end to end: the pooled VOS CLI shell over real SSH
// to the lab, allowlists as a whole line, y/n questions by policy, and per-service connectivity reasons.
import assert from 'node:assert/strict';
import { actionOutcomes } from '../../helpers/kernel.ts';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../lab/index.ts';
import {
  labCredential,
  prepareCucm,
  startProductStack,
  type ProductStack,
} from '../../helpers/product-stack.ts';

describe('cucm VOS CLI and connectivity tools through MCP', () => {
  let s: ProductStack;
  let cucm: LabNodeInfo;
  before(async () => {
    s = await startProductStack();
    cucm = await prepareCucm(s);
  });
  after(async () => {
    await s.stop();
  });

  it('runs a command, reuses the shell on the next call, and audits the host', async () => {
    const mark = s.mark();
    const first = await s.ok('auditor', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'show version active',
    });
    assert.match(String(first.output), /Active Master Version: 15\.0/);
    const second = await s.ok('auditor', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'utils service list',
    });
    assert.equal(second.reused_shell, true);
    assert.match(String(second.output), /Cisco CallManager\[STARTED\]/);
    const rec = actionOutcomes(s.auditSince(mark)).filter((r) => r.tool_name === 'cucm_os_run_command');
    assert.deepEqual(
      rec.map((r) => [r.host, r.result]),
      [
        [cucm.name, 'ALLOWED'],
        [cucm.name, 'ALLOWED'],
      ],
    );
  });

  it('refuses multi-line, control characters and commands outside the allowlist before sending', async () => {
    const sent = (): number => s.lab.state.log.commands.length;
    const before = sent();
    for (const command of [
      'show status\nutils system restart',
      'show status\u001b[2J',
      'show status\r',
      'show\u0000x',
    ]) {
      const r = await s.fails('admin', 'cucm_os_run_command', { host: cucm.name, command });
      assert.equal(r.error, 'BAD_REQUEST', JSON.stringify(command));
    }
    const restart = await s.fails('admin', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'utils system restart',
    });
    assert.equal(restart.error, 'ProfilePermissionError', 'denied by the admin allowlist');
    const opSet = await s.fails('operator', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'set tls min-version 1.0',
    });
    assert.equal(opSet.error, 'ProfilePermissionError');
    // "show *" matches a whole line only: a trailing second command cannot ride on an allowed prefix.
    const chained = await s.fails('auditor', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'show status; utils system restart',
    });
    assert.ok(['BAD_REQUEST', 'SSHError', 'ProfilePermissionError'].includes(chained.error), chained.error);
    assert.equal(s.lab.state.cucm.os.restarts, 0);
    assert.equal(sent() - before, chained.error === 'SSHError' ? 1 : 0);
  });

  it('answers a (y/n) question "n" by default; confirm is admin-only and answers "y"', async () => {
    // `set` is destructive: the change needs its preview's plan_id, and then the CLI's own (y/n)
    // question is still answered "n" without confirm: the two confirmations are separate.
    const tls11 = { host: cucm.name, command: 'set tls min-version 1.1' };
    const unplanned = await s.fails('admin', 'cucm_os_run_command', tls11);
    assert.equal(unplanned.error, 'CONFIRMATION_REQUIRED');
    const refused = await s.fails(
      'admin',
      'cucm_os_run_command',
      await s.plan('admin', 'cucm_os_run_command', tls11),
    );
    assert.equal(refused.error, 'SSHError');
    assert.match(refused.message, /confirm/i);
    assert.notEqual(s.lab.state.cucm.os.tlsMinVersion, '1.1');
    const opConfirm = await s.fails('operator', 'cucm_os_run_command', {
      host: cucm.name,
      command: 'show status',
      confirm: true,
    });
    assert.equal(opConfirm.error, 'ProfilePermissionError');
    const before = s.lab.state.cucm.os.tlsMinVersion;
    await s.ok(
      'admin',
      'cucm_os_run_command',
      await s.plan('admin', 'cucm_os_run_command', {
        host: cucm.name,
        command: 'set tls min-version 1.2',
        confirm: true,
      }),
    );
    assert.equal(s.lab.state.cucm.os.tlsMinVersion, '1.2');
    s.lab.state.cucm.os.tlsMinVersion = before;
  });

  it('check_connectivity reports AXL, RIS and SSH with latency for every profile', async () => {
    for (const role of ['admin', 'operator', 'auditor'] as const) {
      const r = await s.ok(role, 'cucm_check_connectivity', { host: cucm.name });
      const services = r.services as Record<string, { ok: boolean; latency_ms: number; reason?: string }>;
      assert.deepEqual(Object.keys(services).sort(), ['axl', 'ris', 'ssh']);
      for (const [name, v] of Object.entries(services)) {
        assert.equal(v.ok, true, `${role} ${name}: ${v.reason}`);
        assert.ok(v.latency_ms >= 0);
      }
      assert.equal(r.ok, true);
    }
  });

  it('check_connectivity gives a clear reason per failing service', async () => {
    const dead = { ...labCredential(s.lab, cucm, 'axl'), host: 'dead.example.com', address: '127.0.0.1:1' };
    await s.ok('admin', 'cucm_store_credentials', dead);
    await s.ok('admin', 'cucm_os_store_credentials', {
      ...labCredential(s.lab, cucm, 'os'),
      host: 'dead.example.com',
      address: '127.0.0.1:1',
    });
    const r = await s.ok('admin', 'cucm_check_connectivity', { host: 'dead.example.com' });
    const services = r.services as Record<string, { ok: boolean; error?: string; reason?: string }>;
    assert.equal(r.ok, false);
    for (const name of ['axl', 'ris', 'ssh']) {
      assert.equal(services[name]?.ok, false, name);
      assert.equal(services[name]?.error, 'ConnectivityError', `${name}: ${services[name]?.reason}`);
      assert.match(String(services[name]?.reason), /unreachable|refused|ECONNREFUSED/i);
    }
    const none = await s.ok('auditor', 'cucm_check_connectivity', { host: 'no-creds.example.com' });
    for (const v of Object.values(none.services as Record<string, { error?: string }>))
      assert.equal(v.error, 'CredentialError');

    const wrongPw = {
      ...labCredential(s.lab, cucm, 'axl'),
      host: 'wrongpw.example.com',
      password: 'wrong-password',
    };
    await s.ok('admin', 'cucm_store_credentials', wrongPw);
    const auth = await s.ok('admin', 'cucm_check_connectivity', { host: 'wrongpw.example.com' });
    const axl = (auth.services as Record<string, { ok: boolean; error?: string; reason?: string }>).axl;
    assert.equal(axl?.error, 'AXLError');
    assert.match(String(axl?.reason), /authentication/i);
    assert.ok(!JSON.stringify(auth).includes('wrong-password'));
  });
});
