import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, httpRefusal, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { seedServerKeys } from '../../helpers/keys.ts';

/** A profile like the shipped auditor, with a tool denied and a tight infra rate limit. */
function writeRestrictedProfile(stateDir: string): string {
  const base = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'profiles/_default/auditor.json'), 'utf8'),
  ) as Record<string, unknown>;
  const profile = {
    ...base,
    name: 'restricted',
    tools: { allow: ['infra_*', 'common_read_report', 'cucm_test_*'], deny: [] },
    rateLimits: { infra: { default: { limit: 3, windowSeconds: 60 } } },
  };
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  const file = join(stateDir, 'profiles', 'restricted.json');
  writeFileSync(file, JSON.stringify(profile, null, 2));
  return file;
}

const lastAction = (k: TestKernel, tool: string) =>
  k
    .auditRecords()
    .filter((r) => r.event === 'ACTIONS' && r.tool_name === tool)
    .at(-1);

describe('tool call refusals, each audited', () => {
  const state = tempStateDir();
  let k: TestKernel;
  let c: ConnectedClient;
  let profileFile: string;
  before(async () => {
    seedServerKeys(state.dir);
    profileFile = writeRestrictedProfile(state.dir);
    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      fixturePlugins: true,
      env: { AUTH_CLIENTS: 'rita:restricted:cucm', AUTH_BCRYPT_COST: '4' },
    });
    c = await connectMcp(k, startupToken(k.stateDir, 'rita'));
  });
  after(async () => {
    await c.close();
    await k.stop();
    state.cleanup();
  });

  it('wrong profile: ProfilePermissionError, audited DENIED', async () => {
    const r = await c.call('common_write_report', { name: 'x.md', content: '# x', mode: 'create' });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent?.error, 'ProfilePermissionError');
    assert.match(r.content[0]?.text ?? '', /^ProfilePermissionError: /);
    const rec = lastAction(k, 'common_write_report');
    assert.equal(rec?.result, 'DENIED');
    assert.equal(rec?.client, 'rita');
    assert.equal(rec?.product, 'common');
    assert.equal(typeof rec?.exec_time_ms, 'number');
  });

  it('product tool without a license: LicenseError, audited', async () => {
    const r = await c.call('cucm_test_echo', { text: 'hi', host: 'cucm-pub' });
    assert.equal(r.structuredContent?.error, 'LicenseError');
    const rec = lastAction(k, 'cucm_test_echo');
    assert.equal(rec?.result, 'ERROR');
    assert.equal(rec?.error, 'LicenseError');
    assert.equal(rec?.host, 'cucm-pub');
  });

  it('over the rate limit: HTTP 429 RATE_LIMITED with retry_after_s, a RATE_LIMITED record and ACTIONS RATE_LIMITED', async () => {
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await c.call('infra_health'));
    assert.deepEqual(
      results.map((r) => r.isError),
      [undefined, undefined, undefined],
    );
    const limited = await c.call('infra_health').then(
      () => null,
      (err: unknown) => httpRefusal(err),
    );
    assert.equal(limited?.status, 429);
    assert.equal(limited?.error, 'RATE_LIMITED');
    const retry = limited?.retry_after_s as number;
    assert.ok(retry >= 1 && retry <= 60, String(retry));
    const rl = k
      .auditRecords()
      .filter((r) => r.event === 'RATE_LIMITED')
      .at(-1);
    assert.deepEqual([rl?.client, rl?.product, rl?.service, rl?.limit], ['rita', 'infra', 'default', 3]);
    assert.equal(lastAction(k, 'infra_health')?.result, 'RATE_LIMITED');
    const metrics = await (await k.fetch(`${k.url}/metrics`)).text();
    assert.match(metrics, /ucmcp_rate_limited_total\{client="rita",product="infra",service="default"\} 1/);
  });

  it('editing the profile changes the next call within 2 s; a broken file changes nothing', async () => {
    const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as { tools: { allow: string[] } };
    profile.tools.allow.push('common_write_report');
    writeFileSync(profileFile, JSON.stringify(profile));
    const t0 = Date.now();
    let r = await c.call('common_write_report', { name: 'ok.md', content: '# ok', mode: 'create' });
    while (r.isError && Date.now() - t0 < 2000) {
      await new Promise((res) => setTimeout(res, 100));
      r = await c.call('common_write_report', { name: 'ok.md', content: '# ok', mode: 'create' });
    }
    assert.equal(r.isError, undefined, `permitted within ${Date.now() - t0} ms`);
    assert.ok(Date.now() - t0 < 2000);

    writeFileSync(profileFile, '{ "name": "restricted", "tools": ');
    await new Promise((res) => setTimeout(res, 700));
    const still = await c.call('common_read_report', { name: 'ok.md' });
    assert.equal(still.isError, undefined, 'the last good profile stays in force');
    const appLog = readFileSync(join(k.stateDir, 'logs/app.log'), 'utf8');
    assert.match(appLog, /invalid profile file; the last good version stays in force/);
  });

  it('an unknown tool and invalid arguments are coded errors, audited ERROR', async () => {
    // An unknown tool is a protocol error (JSON-RPC -32602), still audited under the name sent.
    await assert.rejects(c.call('infra_nope'), (err: unknown) => {
      assert.equal((err as { code?: number }).code, -32602);
      assert.match(String((err as Error).message), /NOT_FOUND: no tool named infra_nope/);
      return true;
    });
    assert.equal(lastAction(k, 'infra_nope')?.result, 'ERROR');
    // common_read_report is outside the tight infra limit, so only validation can refuse it.
    const bad = await c.call('common_read_report', { name: 'ok.md', cursor: -1 });
    assert.equal(bad.structuredContent?.error, 'BAD_REQUEST');
    assert.match(String(bad.structuredContent?.message), /cursor/);
    const extra = await c.call('common_read_report', { name: 'ok.md', surprise: true });
    assert.equal(extra.structuredContent?.error, 'BAD_REQUEST', 'unknown arguments are refused, not ignored');
    assert.equal(lastAction(k, 'common_read_report')?.result, 'ERROR');
  });
});
