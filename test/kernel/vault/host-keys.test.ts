import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditUnavailableError, SSHError } from '../../../kernel/errors/index.ts';
import {
  ClientHostKeys,
  HostKeyError,
  hostVerifier,
  sshFingerprint,
  sshKeyType,
  Vault,
  type VaultAudit,
} from '../../../kernel/vault/index.ts';
import type { KnownHostsFile } from '../../../kernel/vault/known-hosts-file.ts';
import { newHostKey, runCommand, SSH_PASSWORD, startSshServer, type TestSshServer } from './ssh-server.ts';
import { vaultFixture } from './vault-fixture.ts';

/** Tries one command; returns the verifier's rejection (the connection must have failed). */
async function refused(server: TestSshServer, verify: ReturnType<typeof hostVerifier>): Promise<SSHError> {
  await assert.rejects(runCommand(server.port, verify, 'show version active'), /Host denied/);
  assert.ok(verify.rejection instanceof SSHError, 'the verifier kept the reason');
  return verify.rejection;
}

describe('SSH host keys: trust on first use against a real ssh2 server', () => {
  const fx = vaultFixture();
  const noc = fx.vault.forClient('noc-agent').hostKeys;
  const servers: TestSshServer[] = [];
  const firstKey = newHostKey();
  const secondKey = newHostKey();
  let host = '';
  let firstFp = '';
  let secondFp = '';
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await fx.cleanup();
  });

  it('refuses the first connection before authentication and records the key as pending', async () => {
    const server = await startSshServer(firstKey);
    servers.push(server);
    host = `127.0.0.1:${server.port}`;
    firstFp = sshFingerprint(server.publicBlob);
    assert.equal(sshKeyType(server.publicBlob), 'ssh-ed25519');

    const err = await refused(server, hostVerifier(noc, 'cucm', host));
    assert.ok(err instanceof HostKeyError);
    assert.equal(err.reason, 'unknown');
    assert.equal(err.presented, firstFp);
    assert.equal(err.status, 400);
    assert.match(err.message, /first SSH connection to cucm host 127\.0\.0\.1:\d+/);
    assert.ok(
      err.message.includes(
        `call cucm_os_trust_fingerprint with action "trust" or "reject" and fingerprint ${firstFp}`,
      ),
    );
    assert.deepEqual(server.events, ['connection'], 'no authentication attempt, no command');
    assert.deepEqual(noc.list(), [{ product: 'cucm', host, state: 'pending', fingerprint: firstFp }]);

    const again = await refused(server, hostVerifier(noc, 'cucm', host));
    assert.equal((again as HostKeyError).reason, 'pending');
    assert.deepEqual(server.events, ['connection', 'connection']);
  });

  it('refuses a decision on a fingerprint the host never presented, or on an unseen host', () => {
    const wrong = sshFingerprint(Buffer.from('some other key'));
    assert.throws(
      () => noc.decide('cucm', host, 'trust', wrong),
      (err: unknown) => {
        assert.ok(err instanceof SSHError);
        assert.match(err.message, /is not a key cucm host .* presented \(it presented SHA256:/);
        return true;
      },
    );
    assert.throws(
      () => noc.decide('imp', host, 'trust', firstFp),
      /no SSH host key has been seen for imp host/,
    );
    assert.throws(() => noc.decide('cucm', host, 'trust', 'MD5:aa:bb'), /SHA256:<base64> form/);
    assert.throws(
      () => noc.decide('cucm', host, 'allow' as 'trust', firstFp),
      /action must be "trust" or "reject"/,
    );
    assert.throws(() => noc.decide('cucm', 'bad host name!', 'reject', firstFp), SSHError);
    assert.equal(noc.list()[0]?.state, 'pending', 'nothing was decided');
    // A refused request is audited as refused: no `action` (trusted or rejected) a reader could take
    // for a decision, only what was requested and why it was refused.
    const trusted = fx.auditRecords().filter((r) => r.event === 'TRUSTED');
    assert.deepEqual(
      trusted.map((r) => [r.status, r.reason, r.requested, 'action' in r]),
      [
        ['REFUSED', 'fingerprint_mismatch', 'trust', false],
        ['REFUSED', 'unknown_host', 'trust', false],
        ['REFUSED', 'invalid', 'trust', false],
        ['REFUSED', 'invalid', '(invalid)', false],
        ['REFUSED', 'invalid', 'reject', false],
      ],
    );
  });

  it('pins a trusted key: the connection then authenticates and runs the command', async () => {
    const status = noc.decide('cucm', host, 'trust', `${firstFp}=`);
    assert.deepEqual(status, { product: 'cucm', host, state: 'trusted', fingerprint: firstFp });
    const rec = fx
      .auditRecords()
      .filter((r) => r.event === 'TRUSTED' && r.status === 'OK')
      .at(-1);
    assert.deepEqual(
      { ...rec, timestamp: undefined },
      {
        timestamp: undefined,
        event: 'TRUSTED',
        client: 'noc-agent',
        status: 'OK',
        product: 'cucm',
        host,
        action: 'trusted',
        fingerprint: firstFp,
      },
    );
    const server = servers[0] as TestSshServer;
    const verify = hostVerifier(noc, 'cucm', host);
    assert.equal(await runCommand(server.port, verify, 'show version active'), 'ran show version active\n');
    assert.equal(verify.rejection, undefined);
    assert.equal(verify.fingerprint, firstFp);
    assert.deepEqual(server.events.slice(2), [
      'connection',
      'auth:none',
      'auth:password',
      'ready',
      'exec:show version active',
    ]);
  });

  it('refuses a changed key, shows both fingerprints, and sends nothing', async () => {
    const old = servers.shift() as TestSshServer;
    await old.close();
    const server = await startSshServer(secondKey, old.port);
    servers.push(server);
    secondFp = sshFingerprint(server.publicBlob);
    assert.notEqual(secondFp, firstFp);

    const err = await refused(server, hostVerifier(noc, 'cucm', host));
    assert.ok(err instanceof HostKeyError);
    assert.equal(err.reason, 'changed');
    assert.equal(err.expected, firstFp);
    assert.equal(err.presented, secondFp);
    assert.ok(err.message.includes(`expected ${firstFp}, presented ${secondFp}`), err.message);
    assert.deepEqual(server.events, ['connection'], 'no authentication, no session');
    assert.deepEqual(noc.list(), [
      { product: 'cucm', host, state: 'trusted', fingerprint: firstFp, pendingFingerprint: secondFp },
    ]);
    assert.ok(fx.log.lines.some((l) => l.includes('SSH host key changed') && l.includes(secondFp)));
  });

  it('keeps refusing a rejected key, and a later trust decision can reverse it', async () => {
    const server = servers[0] as TestSshServer;
    noc.decide('cucm', host, 'reject', secondFp);
    const err = await refused(server, hostVerifier(noc, 'cucm', host));
    assert.equal((err as HostKeyError).reason, 'rejected');
    assert.match(err.message, /was rejected; the connection was refused/);
    assert.deepEqual(server.events, ['connection', 'connection']);
    assert.equal(noc.list()[0]?.state, 'trusted', 'the pinned key stays pinned');

    noc.decide('cucm', host, 'trust', secondFp);
    assert.equal(
      await runCommand(server.port, hostVerifier(noc, 'cucm', host), 'show status'),
      'ran show status\n',
    );
    const decisions = fx.auditRecords().filter((r) => r.event === 'TRUSTED' && r.status === 'OK');
    assert.deepEqual(
      decisions.map((r) => `${r.action}:${r.fingerprint === firstFp ? 'first' : 'second'}`),
      ['trusted:first', 'rejected:second', 'trusted:second'],
    );
  });

  it('keeps trust per client and per product', async () => {
    const server = servers[0] as TestSshServer;
    const other = fx.vault.forClient('other-client').hostKeys;
    const err = await refused(server, hostVerifier(other, 'cucm', host));
    assert.equal((err as HostKeyError).reason, 'unknown', 'another client has its own trust store');
    const imp = await refused(server, hostVerifier(noc, 'imp', host));
    assert.equal((imp as HostKeyError).reason, 'unknown', 'another product is another node');
    assert.throws(() => other.decide('cucm', host, 'trust', firstFp), /is not a key cucm host/);
  });

  it('does not proceed when the decision cannot be audited', () => {
    let broken = false;
    const audit: VaultAudit = {
      write: (e) => {
        if (broken)
          throw new AuditUnavailableError('the audit log cannot be written; the operation was refused');
        return fx.audit.write(e);
      },
    };
    const keys = Vault.open(fx.paths, audit, fx.log).forClient('noc-agent').hostKeys;
    const pending = keys.list('imp')[0];
    assert.equal(pending?.state, 'pending');
    broken = true;
    assert.throws(() => keys.decide('imp', host, 'trust', pending.fingerprint), AuditUnavailableError);
    broken = false;
    assert.equal(keys.list('imp')[0]?.state, 'pending', 'not trusted without its audit record');
  });

  it('a decision audited but not saved is followed by a FAILED record without an action', () => {
    const fp = sshFingerprint(Buffer.from('unsaved key'));
    // A store that reads but cannot write (disk full, read-only mount).
    const file = {
      read: () => ({ hosts: { 'imp/imp9.lab': { pending: { fingerprint: fp, at: 'x' }, rejected: [] } } }),
      write: () => {
        throw new Error('ENOSPC: no space left on device');
      },
    } as unknown as KnownHostsFile;
    const keys = new ClientHostKeys('noc-agent', file, fx.audit, fx.log);
    const before = fx.auditRecords().length;
    assert.throws(() => keys.decide('imp', 'imp9.lab', 'trust', fp), /could not be written/);
    const [announced, undone] = fx.auditRecords().slice(before);
    assert.equal(announced?.status, 'OK');
    assert.equal(announced?.action, 'trusted');
    assert.deepEqual(
      { ...undone, timestamp: undefined },
      {
        timestamp: undefined,
        event: 'TRUSTED',
        client: 'noc-agent',
        status: 'FAILED',
        product: 'imp',
        host: 'imp9.lab',
        requested: 'trust',
        fingerprint: fp,
        reason: 'write_failed',
      },
    );
  });

  it('fails closed when known_hosts was edited outside the server', async () => {
    const path = join(fx.paths.clients, 'noc-agent', 'vault', 'known_hosts.json');
    const original = readFileSync(path, 'utf8');
    const attacker = sshFingerprint(Buffer.from('attacker key'));
    writeFileSync(path, original.replaceAll(secondFp, attacker));
    const server = servers[0] as TestSshServer;
    const err = await refused(server, hostVerifier(noc, 'cucm', host));
    assert.match(
      err.message,
      /known-hosts store of client noc-agent cannot be used: its integrity check failed/,
    );
    assert.deepEqual(server.events.slice(-1), ['connection']);
    writeFileSync(path, original);
    assert.equal(
      await runCommand(server.port, hostVerifier(noc, 'cucm', host), 'show myself'),
      'ran show myself\n',
    );
  });

  it('folds the default SSH port and prints fingerprints as ssh-keygen does', (t) => {
    const fp = sshFingerprint(Buffer.from('k'));
    assert.throws(() => noc.checkHostKey('cuc', 'CUC1.lab:22', fp), HostKeyError);
    assert.deepEqual(noc.list('cuc'), [
      { product: 'cuc', host: 'cuc1.lab', state: 'pending', fingerprint: fp },
    ]);
    assert.throws(
      () => noc.checkHostKey('cuc', 'cuc1.lab:2222', fp),
      /first SSH connection to cuc host cuc1\.lab:2222/,
    );

    const pubFile = join(fx.dir, 'host_key.pub');
    writeFileSync(pubFile, `${firstKey.public}\n`);
    let keygen: string;
    try {
      keygen = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', pubFile], { encoding: 'utf8' });
    } catch {
      t.skip('ssh-keygen is not installed');
      return;
    }
    assert.equal(keygen.split(' ')[1], firstFp);
  });

  it('treats a new key after rejected ones as a new key awaiting a decision', () => {
    const [a, b] = [sshFingerprint(Buffer.from('a')), sshFingerprint(Buffer.from('b'))];
    assert.throws(() => noc.checkHostKey('imp', 'imp7.lab', a), /first SSH connection to imp host imp7\.lab/);
    noc.decide('imp', 'imp7.lab', 'reject', a);
    assert.throws(() => noc.checkHostKey('imp', 'imp7.lab', a), /was rejected/);
    assert.throws(
      () => noc.checkHostKey('imp', 'imp7.lab', b),
      /new SSH host key for imp host imp7\.lab \(earlier keys were rejected\)/,
    );
    assert.deepEqual(
      noc.list('imp').find((e) => e.host === 'imp7.lab'),
      { product: 'imp', host: 'imp7.lab', state: 'pending', fingerprint: b },
    );
  });

  it('never writes the SSH password anywhere', () => {
    const all = [readFileSync(fx.paths.auditLog, 'utf8'), ...fx.log.lines].join('\n');
    assert.ok(!all.includes(SSH_PASSWORD));
  });
});
