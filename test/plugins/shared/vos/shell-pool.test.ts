import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BadRequestError, ConnectivityError, SSHError } from '../../../../kernel/sdk/index.ts';
import { HostKeyError } from '../../../../kernel/vault/index.ts';
import { VosShellPool } from '../../../../plugins/_shared/vos/shell-pool.ts';
import { TRUNCATION_MARKER } from '../../../../plugins/_shared/vos/shell-session.ts';
import { CUCM_HOST, vosFixture, type VosFixture } from './vos-fixture.ts';

describe('VOS CLI shell pool against the lab over SSH', () => {
  let fx: VosFixture;
  let pool: VosShellPool;
  before(async () => {
    fx = await vosFixture({ commandDelaysMs: { 'show hardware': 1_500 } });
    pool = new VosShellPool({ retryDelaysMs: [20, 20], retryJitterMs: 5 });
  });
  after(async () => {
    await pool.closeAll();
    await fx.stop();
  });

  it('refuses the first contact with the fingerprint, then runs once the key is trusted', async () => {
    const noc = await fx.client('noc');
    const refused = await pool.run(noc, 'cucm', CUCM_HOST, 'show version active').catch((e: unknown) => e);
    assert.ok(refused instanceof HostKeyError, String(refused));
    assert.equal(refused.code, 'SSHError');
    assert.equal(refused.reason, 'unknown');
    assert.ok(refused.message.includes(fx.fingerprint), 'names the fingerprint');
    assert.match(refused.message, /cucm_os_trust_fingerprint/);
    assert.equal(fx.lab.state.cucm.os.logins, 0, 'nothing was sent before the key was trusted');
    assert.equal(pool.size, 0);

    fx.trust(noc);
    const result = await pool.run(noc, 'cucm', CUCM_HOST, 'show   version active');
    assert.equal(result.command, 'show version active', 'spaces normalised');
    assert.match(result.output, /^Active Master Version: 15\.0\.1\.11900-40$/m);
    assert.doesNotMatch(result.output, /admin:|show version active/, 'echo and prompt stripped');
    assert.equal(result.reusedShell, false);
    assert.equal(fx.lab.state.cucm.os.logins, 1);
  });

  it('reuses one shell for several commands, with pagination off', async () => {
    const noc = await fx.client('noc');
    const before = fx.lab.state.cucm.os.logins;
    const list = await pool.run(noc, 'cucm', CUCM_HOST, 'utils service list');
    assert.equal(list.reusedShell, true);
    assert.doesNotMatch(list.output, /--More--/);
    assert.match(list.output, /Cisco CallManager\[STARTED\]/);
    assert.match(list.output, /Cisco DirSync\[STOPPED\] Service Not Activated/);
    assert.ok(list.output.split('\n').length > 30, 'a long output arrives whole');
    assert.match((await pool.run(noc, 'cucm', CUCM_HOST, 'show tls min-version')).output, /1\.0/);
    assert.match(
      (await pool.run(noc, 'cucm', CUCM_HOST, 'utils ntp status')).output,
      /ntpd \(pid \d+\) is running/,
    );
    assert.equal(fx.lab.state.cucm.os.logins, before, 'no new login');
    assert.deepEqual(
      fx.commands('set cli pagination off').map((c) => c.outcome),
      ['ok'],
      'pagination turned off once, on login',
    );
  });

  it('serialises concurrent commands on one shell', async () => {
    const noc = await fx.client('noc');
    const outputs = await Promise.all(
      ['show version active', 'show tls min-version', 'utils fips status'].map((c) =>
        pool.run(noc, 'cucm', CUCM_HOST, c),
      ),
    );
    assert.match(outputs[0]?.output ?? '', /Active Master Version/);
    assert.match(outputs[1]?.output ?? '', /Configured TLS minimum version/);
    assert.match(outputs[2]?.output ?? '', /FIPS/);
    assert.equal(fx.lab.state.cucm.os.logins, 1);
  });

  it('keeps clients apart: another client gets its own shell and its own host-key trust', async () => {
    const other = await fx.client('other');
    await assert.rejects(pool.run(other, 'cucm', CUCM_HOST, 'show version active'), HostKeyError);
    fx.trust(other);
    const result = await pool.run(other, 'cucm', CUCM_HOST, 'show version active');
    assert.equal(result.reusedShell, false);
    assert.equal(fx.lab.state.cucm.os.logins, 2);
    assert.equal(pool.size, 2);
  });

  it('turns a node error into SSHError with the node text', async () => {
    const noc = await fx.client('noc');
    const err = await pool.run(noc, 'cucm', CUCM_HOST, 'show me the money').catch((e: unknown) => e);
    assert.ok(err instanceof SSHError);
    assert.match(err.message, /Executed command unsuccessfully/);
    assert.match(err.message, /No valid command entered/);
    const sql = await pool
      .run(noc, 'cucm', CUCM_HOST, 'run sql select nosuch from device')
      .catch((e: unknown) => e);
    assert.ok(sql instanceof SSHError);
    assert.match(sql.message, /-217/);
    // The shell is still in step: the next command gets its own output.
    assert.match((await pool.run(noc, 'cucm', CUCM_HOST, 'show tls min-version')).output, /TLS minimum/);
  });

  it('answers Continue (y/n)? with n by default, and with y only on confirm', async () => {
    const noc = await fx.client('noc');
    const err = await pool.run(noc, 'cucm', CUCM_HOST, 'set tls min-version 1.2').catch((e: unknown) => e);
    assert.ok(err instanceof SSHError);
    assert.match(err.message, /asks for confirmation.*not run/);
    assert.equal(fx.lab.state.cucm.os.tlsMinVersion, '1.0');
    assert.deepEqual(
      fx.commands('set tls min-version 1.2').map((c) => c.outcome),
      ['cancelled'],
    );
    const done = await pool.run(noc, 'cucm', CUCM_HOST, 'set tls min-version 1.2', { confirm: true });
    assert.match(done.output, /Successfully set minimum TLS version to 1\.2/);
    assert.equal(fx.lab.state.cucm.os.tlsMinVersion, '1.2');
  });

  it("answers file get's [y/n]? question with n too, instead of waiting out the budget", async () => {
    const noc = await fx.client('noc');
    const err = await pool
      .run(noc, 'cucm', CUCM_HOST, 'file get activelog platform/drf/log/drfMaster.log', { timeoutMs: 5_000 })
      .catch((e: unknown) => e);
    assert.ok(err instanceof SSHError, String(err));
    assert.match(err.message, /asks for confirmation.*answered "n"/);
    assert.deepEqual(
      fx.commands('file get activelog platform/drf/log/drfMaster.log').map((c) => c.outcome),
      ['cancelled'],
    );
    assert.match((await pool.run(noc, 'cucm', CUCM_HOST, 'show tls min-version')).output, /TLS minimum/);
  });

  it('reads file view whole through the options: pager, and the shell stays in step', async () => {
    const noc = await fx.client('noc');
    const viewed = await pool.run(
      noc,
      'cucm',
      CUCM_HOST,
      'file view activelog platform/drf/log/drfMaster.log',
      {
        timeoutMs: 10_000,
      },
    );
    const rows = viewed.output.split('\n');
    assert.equal(rows.length, 215, 'every line of the file once');
    assert.equal(new Set(rows).size, 215);
    assert.doesNotMatch(viewed.output, /options:|end of the file reached/);
    assert.match((await pool.run(noc, 'cucm', CUCM_HOST, 'show tls min-version')).output, /TLS minimum/);
  });

  it('refuses newline, control and ANSI commands before anything is sent', async () => {
    const noc = await fx.client('noc');
    const count = fx.lab.state.log.commands.length;
    for (const bad of [
      'show version active\nutils system restart',
      'show\x07version',
      '\x1b[2Jshow version',
    ]) {
      await assert.rejects(pool.run(noc, 'cucm', CUCM_HOST, bad), BadRequestError);
    }
    assert.equal(fx.lab.state.log.commands.length, count);
  });

  it('gives up a command past its budget with SSHError and a fresh shell next time', async () => {
    const noc = await fx.client('noc');
    const logins = fx.lab.state.cucm.os.logins;
    const err = await pool
      .run(noc, 'cucm', CUCM_HOST, 'show hardware', { timeoutMs: 300 })
      .catch((e: unknown) => e);
    assert.ok(err instanceof SSHError);
    assert.match(err.message, /did not finish within 0\.3 s.*shell was closed/);
    const next = await pool.run(noc, 'cucm', CUCM_HOST, 'show version active');
    assert.equal(next.reusedShell, false);
    assert.equal(fx.lab.state.cucm.os.logins, logins + 1);
  });

  it('cuts an output over the size cap with a marker and keeps the shell usable', async () => {
    const small = new VosShellPool({ maxOutputBytes: 300 });
    try {
      const noc = await fx.client('noc');
      const list = await small.run(noc, 'cucm', CUCM_HOST, 'utils service list');
      assert.equal(list.truncated, true);
      assert.ok(list.output.endsWith(TRUNCATION_MARKER));
      assert.match((await small.run(noc, 'cucm', CUCM_HOST, 'show tls min-version')).output, /TLS minimum/);
    } finally {
      await small.closeAll();
    }
  });

  it('reconnects once when the pooled shell died between calls', async () => {
    const noc = await fx.client('noc');
    await pool.run(noc, 'cucm', CUCM_HOST, 'show version active');
    const logins = fx.lab.state.cucm.os.logins;
    // quit ends the shell on the node side; the pool notices and logs in again next time.
    await pool.run(noc, 'cucm', CUCM_HOST, 'quit').catch(() => undefined);
    const next = await pool.run(noc, 'cucm', CUCM_HOST, 'show version active');
    assert.match(next.output, /Active Master Version/);
    assert.equal(fx.lab.state.cucm.os.logins, logins + 1);
  });

  it('fails authentication with SSHError and no credential in the message', async () => {
    const wrong = await fx.client('wrong-pw', 'Not-The-Password-77');
    await assert.rejects(pool.run(wrong, 'cucm', CUCM_HOST, 'show version active'), HostKeyError);
    fx.trust(wrong);
    const err = await pool.run(wrong, 'cucm', CUCM_HOST, 'show version active').catch((e: unknown) => e);
    assert.ok(err instanceof SSHError);
    assert.match(err.message, /authentication failed/);
    assert.doesNotMatch(err.message, /Not-The-Password-77|osadmin|Lab-Os-Pass/);
  });

  it('answers a dead port with ConnectivityError after bounded retries', async () => {
    const view = fx.vault.vault.forClient('dead');
    await view.store('cucm', 'os', 'dead-node.lab.example', {
      username: 'osadmin',
      password: 'whatever-1',
      options: { address: '127.0.0.1:1' },
    });
    const started = Date.now();
    const err = await pool
      .run(view, 'cucm', 'dead-node.lab.example', 'show version active')
      .catch((e: unknown) => e);
    assert.ok(err instanceof ConnectivityError, String(err));
    assert.match(err.message, /ECONNREFUSED.*3 attempts/);
    assert.ok(Date.now() - started < 5_000);
  });

  it('closes idle shells after the idle timeout, and all shells on closeAll', async () => {
    const quick = new VosShellPool({ idleMs: 100 });
    const noc = await fx.client('noc');
    await quick.run(noc, 'cucm', CUCM_HOST, 'show version active');
    assert.equal(quick.size, 1);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(quick.size, 0);
    const check = await quick.check(noc, 'cucm', CUCM_HOST);
    assert.equal(check.reusedShell, false);
    assert.ok(check.loginMs >= 100, 'the lab login delay is part of the login');
    assert.equal((await quick.check(noc, 'cucm', CUCM_HOST)).reusedShell, true);
    await quick.closeAll();
    assert.equal(quick.size, 0);
  });
});
