// Issue 24: the one-time credential page behind a balancer. The link a tool opens lives in the memory of
// the instance that opened it (the typed password goes straight to the waiting tool, never through the
// store), so with a shared store the link names its instance (`/credentials/enter/<instance>~<random>`)
// and the balancer sends it there. With that rule the page is shown and stored through the balancer;
// without it, the instances the rotation picks wrongly answer a coded 421 naming the right instance,
// and never read the form.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import { connectMcp, type ConnectedClient } from '../helpers/mcp-client.ts';
import { scaleOutSkip, waitFor } from './support.ts';

const skip = scaleOutSkip();
const PASSWORD = 'Routed-Page-Secret-5d1c';

/** The balancer's rule, as deploy/haproxy.cfg's `use-server ucmcp-N if { path_beg /credentials/enter/ucmcp-N~ }`. */
function credentialRule(req: IncomingMessage): number | undefined {
  const m = /^\/credentials\/enter\/i(\d+)~/.exec(req.url ?? '');
  return m ? Number(m[1]) - 1 : undefined;
}

describe('scale-out: the credential page reaches the instance that opened its link', { skip }, () => {
  let c: Cluster;
  let op: ConnectedClient | undefined;
  before(async () => {
    c = await startCluster({
      instances: 3,
      signed: true,
      env: { AUTH_CLIENTS: 'op1:operator:cucm', AUTH_BCRYPT_COST: '4' },
    });
    op = await connectMcp(c.kernel, c.token('op1'));
  });
  after(async () => {
    await op?.close().catch(() => undefined);
    await c?.close();
  });

  const get = (url: string) => c.fetch(url);
  const post = (url: string, form: Record<string, string>) =>
    c.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: c.url },
      body: new URLSearchParams(form).toString(),
    });
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it('the link names its instance; misrouted requests get 421 naming it; with the rule the page stores', async () => {
    assert.ok(op);
    const host = 'cucm-routed.example';
    const r = await op.call('cucm_store_credentials', { host, username: 'axladmin', address: '127.0.0.1:1' });
    assert.equal(r.isError, undefined, JSON.stringify(r.structuredContent));
    const url = String((r.structuredContent as Record<string, unknown>).url);
    const m = new RegExp(`^${c.url}/credentials/enter/(i[123])~[A-Za-z0-9_-]{43}$`).exec(url);
    assert.ok(m, `a link naming an instance: ${url}`);
    const owner = m[1] as string;
    const ownerIndex = Number(owner.slice(1)) - 1;
    const path = new URL(url).pathname;

    // Plain round-robin: three requests reach all three instances; the two others answer 421.
    c.balancer.route = undefined;
    c.balancer.reset();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(url);
      statuses.push(res.status);
      const text = await res.text();
      if (res.status === 421) {
        assert.match(text, /MISDIRECTED_REQUEST<\/strong>/);
        assert.ok(text.includes(`belongs to instance ${owner}`), text);
        assert.ok(text.includes(`/credentials/enter/${owner}~...`), text);
      } else assert.equal(res.status, 200, text);
    }
    const served = c.balancer.log.filter((e) => e.path === path);
    assert.equal(new Set(served.map((e) => e.backend)).size, 3, 'the rotation reached every instance');
    for (const e of served) assert.equal(e.status, e.backend === ownerIndex ? 200 : 421, JSON.stringify(e));
    assert.deepEqual(
      statuses.filter((s) => s === 421).length,
      2,
      `two of three landed on the wrong instance: ${statuses.join(',')}`,
    );

    // A form posted to the wrong instance is refused before it is read: nothing of it is logged.
    const wrong = (ownerIndex + 1) % 3;
    const direct = c.direct(wrong);
    const misposted = await direct.fetch(`${direct.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: c.url },
      body: new URLSearchParams({
        csrf: 'x'.repeat(43),
        username: 'axladmin',
        password: PASSWORD,
      }).toString(),
    });
    assert.equal(misposted.status, 421);
    const mispostedText = await misposted.text();
    assert.match(mispostedText, /MISDIRECTED_REQUEST/);
    assert.ok(!mispostedText.includes(PASSWORD));
    // The refusal is in the wrong instance's own log (logs/app.log-<instance>), the password nowhere.
    const logFile = join(c.stateDir, 'logs', `app.log-i${wrong + 1}`);
    const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    await waitFor(async () => readLog().includes('credential link of another instance'), {
      timeoutMs: 5000,
      what: `the refusal in ${logFile}`,
    });
    for (let i = 1; i <= 3; i++) {
      const f = join(c.stateDir, 'logs', `app.log-i${i}`);
      if (existsSync(f)) assert.ok(!readFileSync(f, 'utf8').includes(PASSWORD), `no password in ${f}`);
    }
    assert.ok(!c.instances[wrong]?.process().output().includes(PASSWORD));

    // With the rule every request for the link reaches its instance, and the page stores.
    c.balancer.route = credentialRule;
    c.balancer.reset();
    const page = await get(url);
    assert.equal(page.status, 200);
    const html = await page.text();
    const stored = await post(url, { csrf: csrfOf(html), username: 'axladmin', password: PASSWORD });
    const done = await stored.text();
    assert.equal(stored.status, 200, done);
    assert.match(done, /Credentials stored/);
    assert.deepEqual(
      c.balancer.log.filter((e) => e.path === path).map((e) => e.backend),
      [ownerIndex, ownerIndex],
    );
    // Every instance reads the shared vault: the entry is listed through the rotation.
    for (let i = 0; i < 3; i++) {
      const listed = await op.call('cucm_list_credentials', {});
      const hosts = (listed.structuredContent?.credentials as { host: string }[]).map((x) => x.host);
      assert.ok(hosts.includes(host), JSON.stringify(hosts));
    }
  });
});
