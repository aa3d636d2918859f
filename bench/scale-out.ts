// Several instances as one (issue 24): calls/s of a cheap tool call (infra_health, 2026-07-28, which
// needs no session, so every call may land on any instance) through the round-robin balancer of the
// scale-out tests (test/helpers/balancer.ts) with 1, 2 and 3 instances sharing a real redis-server,
// against the honest baseline: one instance with STATE_BACKEND=local behind the same balancer. Then the
// latency the shared store adds per call: one instance, sequential calls, local versus redis.
// The load comes from the lean client of bench/mcp-throughput.ts, in a process of its own. The cases
// take turns, their order alternating by repeat, and min/median/max over the repeats are printed. On a
// 2-core machine the cores cap it: the instances, Redis, the balancer and the client share them.
//   node --import tsx bench/scale-out.ts [--sessions 16] [--seconds 4] [--repeats 3]
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster, type Cluster } from '../test/helpers/cluster.ts';
import { redisAvailable } from '../test/helpers/redis-server.ts';
import type { LeanClientJob, LeanClientResult } from './support/lean-client.ts';
import { runChild } from './support/proc.ts';
import { writeBenchProfile } from './support/servers.ts';
import { spread, type Spread } from './support/stats.ts';

const CLIENT = 'bench';

interface Case {
  name: string;
  cluster: 'local' | 'redis';
  instances: number;
  sessions: number;
  runs: LeanClientResult[];
}

const fmt = (s: Spread, digits = 0): string =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)} to ${s.max.toFixed(digits)})`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '16' },
      seconds: { type: 'string', default: '4' },
      repeats: { type: 'string', default: '3' },
    },
  });
  const skip = redisAvailable();
  if (skip) {
    console.log(`scale-out: skipped, ${skip}`);
    return;
  }
  const sessions = Number(values.sessions);
  const machine = (): string => `load average ${loadavg()[0]?.toFixed(2)} on ${cpus().length} cores`;
  console.log(
    `scale-out: ${sessions} sessions, ${values.seconds} s per run, ${values.repeats} repeats; ${machine()}`,
  );
  const opts = {
    signed: true,
    env: { AUTH_CLIENTS: `${CLIENT}:bench:cucm+imp+cuc` },
    prepare: writeBenchProfile,
  };
  let local: Cluster | undefined;
  let redis: Cluster | undefined;
  try {
    // Both stay up for the whole run (an idle instance costs next to nothing), so that the cases can
    // alternate; the redis cluster's rotation is narrowed to 1 or 2 instances by taking the others out.
    local = await startCluster({ ...opts, instances: 1, backend: 'local' });
    redis = await startCluster({ ...opts, instances: 3 });
    const clusters = { local, redis };
    const cases: Case[] = [
      { name: '1 instance, local', cluster: 'local', instances: 1, sessions, runs: [] },
      { name: '1 instance, redis', cluster: 'redis', instances: 1, sessions, runs: [] },
      { name: '2 instances, redis', cluster: 'redis', instances: 2, sessions, runs: [] },
      { name: '3 instances, redis', cluster: 'redis', instances: 3, sessions, runs: [] },
      { name: 'sequential, 1 instance, local', cluster: 'local', instances: 1, sessions: 1, runs: [] },
      { name: 'sequential, 1 instance, redis', cluster: 'redis', instances: 1, sessions: 1, runs: [] },
    ];
    const job = (c: Case): LeanClientJob => {
      const cl = clusters[c.cluster];
      return {
        url: `${cl.url}/mcp`,
        revision: '2026-07-28',
        token: cl.token(CLIENT),
        caFile: join(cl.stateDir, 'secrets/tls_cert.pem'),
        sessions: c.sessions,
        warmupMs: 1000,
        seconds: Number(values.seconds),
        tool: 'infra_health',
        args: {},
        expectKey: 'status',
        // The CPU figure is the first instance's alone: not reported here.
        serverPid: cl.instances[0]?.process().child.pid as number,
      };
    };
    for (let repeat = 0; repeat < Number(values.repeats); repeat++) {
      const order = repeat % 2 === 0 ? cases : [...cases].reverse();
      for (const c of order) {
        const cl = clusters[c.cluster];
        for (let i = 0; i < cl.instances.length; i++)
          if (i < c.instances) cl.balancer.restore(i);
          else cl.balancer.remove(i);
        cl.balancer.reset();
        const r = await runChild<LeanClientResult>('bench/support/lean-client.ts', [JSON.stringify(job(c))]);
        const used = cl.balancer.counts.filter((n) => n > 0).length;
        if (used !== c.instances) throw new Error(`${c.name}: the balancer used ${used} instances`);
        c.runs.push(r);
        console.log(
          `  repeat ${repeat + 1} ${c.name}: ${r.perSecond.toFixed(0)} calls/s, p50 ${r.p50.toFixed(2)} ms`,
        );
      }
    }
    console.log(`machine at end: ${machine()}`);
    const base = cases[0] as Case;
    console.log('');
    console.log('| case | calls/s median (min to max) | vs 1 instance local | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    for (const c of cases) {
      const ratio = spread(
        c.runs.map(
          (r, i) =>
            r.perSecond /
            ((c.sessions === sessions ? base : (cases[4] as Case)).runs[i] as LeanClientResult).perSecond,
        ),
      );
      console.log(
        `| ${c.name} (${c.sessions} session${c.sessions > 1 ? 's' : ''}) | ${fmt(spread(c.runs.map((r) => r.perSecond)))} | ${fmt(ratio, 2)} | ${fmt(spread(c.runs.map((r) => r.p50)), 2)} | ${fmt(spread(c.runs.map((r) => r.p99)), 2)} |`,
      );
    }
    const seqLocal = cases[4] as Case;
    const seqRedis = cases[5] as Case;
    const added = spread(seqRedis.runs.map((r, i) => r.p50 - (seqLocal.runs[i] as LeanClientResult).p50));
    console.log('');
    console.log(
      `added latency of the shared store per call (p50, sequential, 1 instance): ${fmt(added, 2)} ms`,
    );
    console.log(
      '(instances, redis-server, the balancer (this process) and the load client (its own process) share this machine)',
    );
  } finally {
    await redis?.close();
    await local?.close();
  }
}

await main();
