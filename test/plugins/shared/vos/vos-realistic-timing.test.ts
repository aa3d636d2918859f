// The VOS client against a lab that takes a real node's time (LAB_TIMING=realistic): an 8 s login paid
// once, slow commands within their budget, one over its budget given up with the coded error, and a
// node that pages (pagination turned back on) still read whole. One login in all, to keep it short.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SSHError } from '../../../../kernel/sdk/index.ts';
import { HostKeyError } from '../../../../kernel/vault/index.ts';
import { VosShellPool } from '../../../../plugins/_shared/vos/shell-pool.ts';
import { REALISTIC_LOGIN_DELAY_MS } from '../../../../lab/vos/timing.ts';
import { CUCM_HOST, vosFixture, type VosFixture } from './vos-fixture.ts';

describe('VOS CLI shells against a lab with realistic timing', () => {
  let fx: VosFixture;
  let pool: VosShellPool;
  before(async () => {
    // No loginDelayMs: the realistic timing's 8 s applies (the fixture's short default is overridden).
    fx = await vosFixture({ timing: 'realistic', loginDelayMs: undefined, extraPhones: 600 });
    pool = new VosShellPool({ retryDelaysMs: [20], retryJitterMs: 5 });
  });
  after(async () => {
    await pool.closeAll();
    await fx.stop();
  });

  it('pays the 8 s login once; later commands reuse the shell', async () => {
    const noc = await fx.client('noc');
    // First contact records the key (refused before login); then the admin trusts it.
    await assert.rejects(pool.run(noc, 'cucm', CUCM_HOST, 'show version active'), HostKeyError);
    fx.trust(noc);
    const first = await pool.run(noc, 'cucm', CUCM_HOST, 'show version active');
    assert.equal(first.reusedShell, false);
    assert.ok(first.durationMs >= REALISTIC_LOGIN_DELAY_MS, `the login took ${first.durationMs} ms`);
    assert.match(first.output, /^Active Master Version: /m);

    // A slow command (perfmon) within its budget, on the same shell.
    const perf = await pool.run(noc, 'cucm', CUCM_HOST, 'show perf query class Processor');
    assert.equal(perf.reusedShell, true);
    assert.ok(perf.durationMs < REALISTIC_LOGIN_DELAY_MS, 'no second login');
    assert.match(perf.output, /^ - Perf class \(Processor\) has instances and values:$/m);
    assert.equal(fx.lab.state.cucm.os.logins, 1);
  });

  it('reads a paged output whole when the node pages (the real pager question)', async () => {
    const noc = await fx.client('noc');
    await pool.run(noc, 'cucm', CUCM_HOST, 'set cli pagination on');
    // 600 bulk phones and the demo ones: more lines than the client's 500-row terminal shows at once.
    const risdb = await pool.run(noc, 'cucm', CUCM_HOST, 'show risdb query phone');
    assert.equal(risdb.reusedShell, true);
    assert.doesNotMatch(risdb.output, /Press <enter>|to quit/);
    assert.ok(!risdb.output.includes('\x1b'), 'no terminal escape left');
    const rows = risdb.output.split('\n').filter((l) => /^SEP/.test(l));
    const records = /#Number of records: (\d+)/.exec(risdb.output)?.[1];
    assert.equal(rows.length, Number(records));
    assert.ok(rows.length > 600);
    assert.equal(new Set(rows).size, rows.length, 'no line twice, none lost at a page break');
    assert.equal(fx.lab.state.cucm.os.logins, 1);
  });

  it('gives up a command over its budget with the coded error and discards the shell', async () => {
    const noc = await fx.client('noc');
    const err = await pool
      .run(noc, 'cucm', CUCM_HOST, 'utils dbreplication runtimestate', { timeoutMs: 1_500 })
      .catch((e: unknown) => e);
    assert.ok(err instanceof SSHError, String(err));
    assert.equal(err.code, 'SSHError');
    assert.match(
      err.message,
      /"utils dbreplication runtimestate" did not finish within 1\.5 s .*the shell was closed/,
    );
    assert.equal(pool.size, 0, 'the shell whose state is unknown left the pool');
    assert.equal(fx.lab.state.cucm.os.logins, 1);
  });
});
