// Faults of the VOS CLI (SSH) and of the phones' web interface, through the real tools: an SSH node
// that is down, that never says hello, that resets during the handshake or that refuses the login; a
// phone that never answers or resets mid-answer. Each ends with its coded error within its bounds, a
// refused login is never repeated (it would lock the account), and nothing is left open on the node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { nothingOpen, timedFail } from './fault-checks.ts';
import { closedPort, httpFaultNode, sshFaultNode, type HttpFaultNode } from './fault-servers.ts';

const ATTEMPTS = 3;
const TIMEOUT_MS = 1_500;
const BUDGET_MS = 5_000;

describe('faults: SSH nodes and phones that are down, silent, resetting or refusing', () => {
  let s: ProductStack;
  const nodes: { close(): Promise<void> }[] = [];
  let hostSeq = 0;

  before(async () => {
    s = await startProductStack({
      env: {
        NODE_RETRY_ATTEMPTS: String(ATTEMPTS),
        NODE_RETRY_BASE_MS: '200',
        NODE_TIMEOUT_MS: String(TIMEOUT_MS),
        NODE_BUDGET_MS: String(BUDGET_MS),
      },
    });
  });
  after(async () => {
    for (const n of nodes) await n.close();
    await s?.stop();
  });

  const osHostAt = async (address: string): Promise<string> => {
    const host = `ssh-fault${++hostSeq}.example`;
    await s.ok('admin', 'cucm_os_store_credentials', {
      host,
      username: 'osadmin',
      password: 'ssh-fault-password',
      address,
    });
    return host;
  };

  const run = { command: 'show version active' };

  it('an SSH node that is down: ConnectivityError after the bounded retries', async () => {
    const host = await osHostAt(`127.0.0.1:${await closedPort()}`);
    const r = await timedFail(s, 'cucm_os_run_command', { host, ...run });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.match(r.message, new RegExp(`\\(${ATTEMPTS} attempts\\)`));
    assert.ok(r.ms < BUDGET_MS, `took ${Math.round(r.ms)} ms`);
  });

  it('an SSH node that never says hello: cut within the handshake timeout, the socket closed', async () => {
    const n = await sshFaultNode('stall-handshake');
    nodes.push(n);
    const host = await osHostAt(n.address);
    const r = await timedFail(s, 'cucm_os_run_command', { host, ...run });
    assert.ok(['ConnectivityError', 'SSHError'].includes(r.error), `${r.error}: ${r.message}`);
    assert.ok(r.ms >= TIMEOUT_MS - 100, `gave up after ${Math.round(r.ms)} ms, before the handshake timeout`);
    assert.ok(r.ms < BUDGET_MS + 1_500, `took ${Math.round(r.ms)} ms, past the budget`);
    assert.ok(n.connections() >= 1 && n.connections() <= ATTEMPTS, `${n.connections()} connections`);
    await nothingOpen(n);
  });

  it('an SSH node that resets during the handshake: bounded retries, then ConnectivityError', async () => {
    const n = await sshFaultNode('reset-handshake');
    nodes.push(n);
    const host = await osHostAt(n.address);
    const r = await timedFail(s, 'cucm_os_run_command', { host, ...run });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.ok(n.connections() >= 1 && n.connections() <= ATTEMPTS, `${n.connections()} connections`);
    await nothingOpen(n);
  });

  it('an SSH node that refuses the login: SSHError at once, the login never repeated', async () => {
    const n = await sshFaultNode('reject-auth');
    nodes.push(n);
    const host = await osHostAt(n.address);
    // First contact: the host key is shown, then trusted by the admin.
    const check = await s.ok('admin', 'cucm_check_connectivity', { host });
    const ssh = (check.services as Record<string, Record<string, unknown>>).ssh;
    assert.equal(ssh?.host_key, 'unknown', JSON.stringify(ssh));
    await s.ok('admin', 'cucm_os_trust_fingerprint', {
      host,
      fingerprint: ssh?.presented_fingerprint,
      action: 'trust',
    });
    const before = n.logins();
    const r = await timedFail(s, 'cucm_os_run_command', { host, ...run });
    assert.equal(r.error, 'SSHError', r.message);
    assert.match(r.message, /auth|login|password/i);
    assert.doesNotMatch(r.message, /ssh-fault-password/);
    assert.equal(n.logins() - before, 1, 'a refused login is not tried again');
    await nothingOpen(n);
  });

  const phoneAt = async (n: HttpFaultNode): Promise<string> => {
    const host = `phone-fault${++hostSeq}.example`;
    await s.ok('admin', 'cucm_phone_store_credentials', {
      host,
      username: 'phoneuser',
      password: 'phone-fault-password',
      address: n.address,
    });
    return host;
  };

  it('a phone that never answers: ConnectivityError within its timeout and budget', async () => {
    const n = await httpFaultNode({ tls: false, plan: () => ({ kind: 'stall' }) });
    nodes.push(n);
    const host = await phoneAt(n);
    const r = await timedFail(s, 'cucm_phone_screenshot', { host, timeout_s: 1 });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.ok(r.ms >= 1_000, `gave up after ${Math.round(r.ms)} ms`);
    assert.ok(r.ms < BUDGET_MS + 1_500, `took ${Math.round(r.ms)} ms`);
    assert.ok(n.requests.length <= ATTEMPTS, `${n.requests.length} requests`);
    await nothingOpen(n);
  });

  it('a phone that resets mid-answer: bounded retries, then ConnectivityError', async () => {
    const n = await httpFaultNode({
      tls: false,
      plan: () => ({ kind: 'reset-body', length: 50_000, bytes: 1_000 }),
    });
    nodes.push(n);
    const host = await phoneAt(n);
    const r = await timedFail(s, 'cucm_phone_screenshot', { host });
    assert.equal(r.error, 'ConnectivityError', r.message);
    assert.equal(n.requests.length, ATTEMPTS);
    assert.doesNotMatch(r.message, /phone-fault-password/);
    await nothingOpen(n);
  });
});
