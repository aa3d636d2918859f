// Issue 24: killing one instance mid-load loses no acknowledged write. Workers write reports in
// parallel through the round-robin balancer; one instance is killed (SIGKILL) part-way. A write whose
// answer said success must be there afterwards, read back whole through each survivor directly; calls
// that were in flight on the killed instance may fail (they were never acknowledged), and the survivors
// carry on with the rest. Then the same for writes to the shared store itself: revocations, with the
// killed instance back and another one killed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FetchLike } from '@modelcontextprotocol/client';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import { connectModern, type ModernClient } from '../helpers/mcp-client-v2.ts';
import { basicAuth, bearer, clientFiles, getStatus, postForm } from '../helpers/oauth.ts';
import { callTool, modernClient, scaleOutSkip, writeUnlimitedProfile } from './support.ts';

const skip = scaleOutSkip();
const WRITES = 90;
const WORKERS = 6;
const KILL_AFTER = 30;

describe('scale-out: an instance killed mid-load loses no acknowledged write', { skip }, () => {
  let c: Cluster;
  let m: ModernClient;
  before(async () => {
    c = await startCluster({
      instances: 3,
      signed: true,
      env: { AUTH_CLIENTS: 'writer:unlimited:cucm', AUTH_BLACKLIST_THRESHOLD: '1000' },
      // The operator's profile with no reachable rate limit: 90 writes and 120 reads in a minute.
      prepare: (dir) => writeUnlimitedProfile(dir, 'unlimited', 'operator'),
    });
    m = await modernClient(c, 'writer');
  });
  after(async () => {
    await m?.close().catch(() => undefined);
    await c?.close();
  });

  it(`${WRITES} parallel report writes, instance 2 killed after ${KILL_AFTER}: every acknowledged one is there`, async () => {
    const content = (n: number): string =>
      `# Report ${n}\n\n${`line ${n} of a report that must survive\n`.repeat(50)}`;
    const acknowledged: number[] = [];
    const failed: string[] = [];
    let next = 0;
    let killed: Promise<void> | undefined;
    let ackedAfterKill = 0;
    const worker = async (): Promise<void> => {
      while (next < WRITES) {
        const n = next++;
        const r = await callTool(m, 'common_write_report', {
          name: `w-${n}.md`,
          content: content(n),
          mode: 'create',
        });
        if (r.ok) {
          acknowledged.push(n);
          if (killed) ackedAfterKill++;
        } else failed.push(`w-${n}: ${r.error} ${r.message ?? ''}`.slice(0, 200));
        if (acknowledged.length === KILL_AFTER && !killed) killed = c.instances[1]?.kill();
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    await killed;
    console.log(
      `${acknowledged.length} acknowledged (${ackedAfterKill} after the kill), ${failed.length} failed; requests per instance ${c.balancer.counts.join('/')}`,
    );
    assert.ok(killed, 'the instance was killed during the load');
    assert.ok(
      failed.length <= WORKERS,
      `only calls in flight on the killed instance may fail: ${failed.join('; ')}`,
    );
    assert.ok(ackedAfterKill >= WRITES / 2, `the survivors went on: ${ackedAfterKill} after the kill`);

    for (const i of [0, 2]) {
      const direct = await connectModern(c.direct(i), c.token('writer'), {
        fetch: c.fetch as unknown as FetchLike,
      });
      try {
        for (const n of acknowledged) {
          const r = await callTool(direct, 'common_read_report', { name: `w-${n}.md` });
          assert.ok(r.ok, `i${i + 1}: w-${n}.md: ${r.error} ${r.message}`);
          assert.equal(r.structured?.content, content(n), `i${i + 1}: w-${n}.md is whole`);
        }
      } finally {
        await direct.close();
      }
    }
  });

  it('revocations made while instance 3 is killed: every acknowledged one is refused by the survivors', async () => {
    // Instance 2 back on its port (and in the rotation), instance 3 to be killed.
    await c.instances[1]?.start();
    const secret = clientFiles(c.stateDir, 'writer').secret;
    const tokens: string[] = [];
    for (let n = 0; n < 45; n++) {
      const got = await postForm(
        c.kernel,
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth('writer', secret) },
      );
      assert.equal(got.status, 200, await got.clone().text());
      tokens.push(((await got.json()) as { access_token: string }).access_token);
    }
    const acknowledged: number[] = [];
    const failed: string[] = [];
    let next = 0;
    let killed: Promise<void> | undefined;
    const worker = async (): Promise<void> => {
      while (next < tokens.length) {
        const n = next++;
        const token = tokens[n] as string;
        const res = await postForm(
          c.kernel,
          '/revoke',
          { token, token_type_hint: 'access_token' },
          bearer(token),
        ).catch((err: Error) => err);
        if (!(res instanceof Error) && res.status === 200) acknowledged.push(n);
        else
          failed.push(`#${n}: ${res instanceof Error ? res.message : `${res.status} ${await res.text()}`}`);
        if (acknowledged.length === 15 && !killed) killed = c.instances[2]?.kill();
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    await killed;
    console.log(`${acknowledged.length} revocations acknowledged, ${failed.length} failed`);
    assert.ok(killed, 'the instance was killed during the load');
    assert.ok(failed.length <= WORKERS, failed.join('; '));
    for (const i of [0, 1])
      for (const n of acknowledged) {
        const s = await getStatus(c.direct(i), tokens[n] as string);
        assert.equal(s.body.error, 'AUTH_REVOKED', `i${i + 1}: revoked token #${n} answered ${s.status}`);
      }
  });
});
