// Issue 24: a client's rate limit holds across instances under parallel load. A profile allows LIMIT
// infra calls a minute; three times as many are fired at once through the round-robin balancer (each
// call may land on any instance): exactly LIMIT are admitted, never one more, and the rest are refused
// with RATE_LIMITED. With a window per instance, up to 3 x LIMIT would have passed.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import { startCluster, type Cluster } from '../helpers/cluster.ts';
import type { ModernClient } from '../helpers/mcp-client-v2.ts';
import { callTool, modernClient, scaleOutSkip } from './support.ts';

const skip = scaleOutSkip();
const LIMIT = 10;

function writeLimitedProfile(stateDir: string): void {
  const base = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'profiles/_default/auditor.json'), 'utf8'),
  ) as Record<string, unknown>;
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  writeFileSync(
    join(stateDir, 'profiles', 'limited.json'),
    JSON.stringify({
      ...base,
      name: 'limited',
      tools: { allow: ['infra_*'], deny: [] },
      rateLimits: { infra: { default: { limit: LIMIT, windowSeconds: 60 } } },
    }),
  );
}

describe('scale-out: a client rate limit is one limit across instances', { skip }, () => {
  let c: Cluster;
  let m: ModernClient;
  before(async () => {
    c = await startCluster({
      instances: 3,
      signed: true,
      env: { AUTH_CLIENTS: 'rita:limited:cucm' },
      prepare: writeLimitedProfile,
    });
    m = await modernClient(c, 'rita');
  });
  after(async () => {
    await m?.close();
    await c?.close();
  });

  it(`${3 * LIMIT} parallel calls through the balancer: exactly ${LIMIT} admitted, the rest RATE_LIMITED`, async () => {
    c.balancer.reset();
    const outcomes = await Promise.all(Array.from({ length: 3 * LIMIT }, () => callTool(m, 'infra_health')));
    const admitted = outcomes.filter((o) => o.ok).length;
    const refused = outcomes.filter((o) => !o.ok);
    console.log(
      `admitted ${admitted}, refused ${refused.length}; requests per instance ${c.balancer.counts.join('/')}`,
    );
    assert.ok(
      c.balancer.counts.every((n) => n >= LIMIT / 2),
      `the calls were spread over the instances: ${c.balancer.counts.join('/')}`,
    );
    assert.equal(admitted, LIMIT, `admitted ${admitted} of ${3 * LIMIT} with a limit of ${LIMIT}`);
    for (const r of refused) assert.equal(r.error, 'RATE_LIMITED', r.message);
    // Still full afterwards, whichever instance answers.
    for (let i = 0; i < 3; i++) assert.equal((await callTool(m, 'infra_health')).error, 'RATE_LIMITED');
  });
});
