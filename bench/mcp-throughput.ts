// `infra_health` through the whole kernel (TLS, bearer JWT, IP guard, RBAC, rate limit, audit, metrics)
// versus a bare official-SDK v2 server with one echo tool answering JSON, on both MCP revisions, with 1
// and 16 sessions. Three processes: the kernel, the bare server, and a lean client (a new one per phase,
// bench/support/lean-client.ts) that shares its event loop with neither. The servers take turns, the
// order alternating by repeat (A/B, B/A, ...), so machine noise hits both alike; each repeat gives one
// ratio per figure, and min/median/max over the repeats are printed.
//   node --import tsx bench/mcp-throughput.ts [--revision 2025-11-25|2026-07-28|both] [--sessions 1,16]
//                                             [--seconds 4] [--repeats 3]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { LeanClientJob, LeanClientResult, Revision } from './support/lean-client.ts';
import { runChild } from './support/proc.ts';
import {
  benchToken,
  caFile,
  prepareKernelState,
  startBareProcess,
  startKernelProcess,
  type RunningServer,
} from './support/servers.ts';
import { median, spread, type Spread } from './support/stats.ts';

export const REVISIONS: readonly Revision[] = ['2025-11-25', '2026-07-28'];

export interface ThroughputOptions {
  revisions: readonly Revision[];
  sessions: readonly number[];
  seconds: number;
  repeats: number;
  progress?: (line: string) => void;
}

export interface ThroughputCase {
  revision: Revision;
  sessions: number;
  bare: LeanClientResult[];
  kernel: LeanClientResult[];
  /** Kernel calls/s over bare calls/s, one per repeat. */
  ratio: Spread;
  /** Kernel server CPU per call over bare server CPU per call, one per repeat. */
  cpuRatio: Spread;
  /** Kernel p50 minus bare p50, in ms, one per repeat. */
  p50AddedMs: Spread;
}

type Side = 'bare' | 'kernel';

export async function runThroughput(o: ThroughputOptions): Promise<ThroughputCase[]> {
  const state = await prepareKernelState();
  let kernel: RunningServer | undefined;
  let bare: RunningServer | undefined;
  try {
    kernel = await startKernelProcess(state);
    bare = await startBareProcess(state);
    const servers = { kernel, bare };
    const token = benchToken(state);
    const job = (side: Side, revision: Revision, sessions: number): LeanClientJob => ({
      url: `${servers[side].url}/mcp`,
      revision,
      ...(side === 'kernel' ? { token } : {}),
      caFile: caFile(state),
      sessions,
      warmupMs: 1000,
      seconds: o.seconds,
      tool: side === 'kernel' ? 'infra_health' : 'common_test_echo',
      args: side === 'kernel' ? {} : { text: 'ping' },
      expectKey: side === 'kernel' ? 'status' : 'echo',
      ...(side === 'kernel' ? {} : { expectValue: 'ping' }),
      serverPid: servers[side].pid,
    });
    const cases = o.revisions.flatMap((revision) =>
      o.sessions.map(
        (sessions) =>
          ({ revision, sessions, bare: [], kernel: [] }) as Omit<
            ThroughputCase,
            'ratio' | 'cpuRatio' | 'p50AddedMs'
          >,
      ),
    );
    for (let repeat = 0; repeat < o.repeats; repeat++) {
      const order: Side[] = repeat % 2 === 0 ? ['bare', 'kernel'] : ['kernel', 'bare'];
      for (const c of cases) {
        const got: string[] = [];
        for (const side of order) {
          const r = await runChild<LeanClientResult>('bench/support/lean-client.ts', [
            JSON.stringify(job(side, c.revision, c.sessions)),
          ]);
          c[side].push(r);
          got.push(`${side} ${r.perSecond.toFixed(0)}/s`);
        }
        o.progress?.(
          `  repeat ${repeat + 1}/${o.repeats} ${c.revision} ${c.sessions} session(s): ${got.join(', ')}`,
        );
      }
    }
    return cases.map((c) => {
      const each = (f: (k: LeanClientResult, b: LeanClientResult) => number): Spread =>
        spread(c.kernel.map((k, i) => f(k, c.bare[i] as LeanClientResult)));
      return {
        ...c,
        ratio: each((k, b) => k.perSecond / b.perSecond),
        cpuRatio: each((k, b) => k.cpuUsPerCall / b.cpuUsPerCall),
        p50AddedMs: each((k, b) => k.p50 - b.p50),
      };
    });
  } finally {
    await kernel?.stop();
    await bare?.stop();
    state.cleanup();
  }
}

export const fmtSpread = (s: Spread, digits = 2): string =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)} to ${s.max.toFixed(digits)})`;

function report(cases: ThroughputCase[]): void {
  console.log('');
  console.log(
    '| revision | sessions | bare echo calls/s | kernel infra_health calls/s | ratio median (min to max) | p50 ms bare / kernel | server CPU µs/call bare / kernel | CPU ratio |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const c of cases) {
    const m = (rs: LeanClientResult[], k: keyof LeanClientResult): number => median(rs.map((r) => r[k]));
    console.log(
      `| ${c.revision} | ${c.sessions} | ${m(c.bare, 'perSecond').toFixed(0)} | ${m(c.kernel, 'perSecond').toFixed(0)} | ${fmtSpread(c.ratio)} | ${m(c.bare, 'p50').toFixed(2)} / ${m(c.kernel, 'p50').toFixed(2)} | ${m(c.bare, 'cpuUsPerCall').toFixed(0)} / ${m(c.kernel, 'cpuUsPerCall').toFixed(0)} | ${fmtSpread(c.cpuRatio)} |`,
    );
  }
  console.log('');
  console.log(
    '(kernel, bare server and client each in their own process on 127.0.0.1; CPU per call is the server process, user + system, from /proc)',
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      revision: { type: 'string', default: 'both' },
      sessions: { type: 'string', default: '1,16' },
      seconds: { type: 'string', default: '4' },
      repeats: { type: 'string', default: '3' },
    },
  });
  if (values.revision !== 'both' && !REVISIONS.includes(values.revision as Revision))
    throw new Error(`--revision must be ${REVISIONS.join(', ')} or both, not ${values.revision}`);
  const revisions = values.revision === 'both' ? REVISIONS : [values.revision as Revision];
  const sessions = values.sessions.split(',').map(Number);
  const machine = () => `load average ${loadavg()[0]?.toFixed(2)} on ${cpus().length} cores`;
  console.log(`MCP throughput: ${revisions.join(' and ')}, sessions ${sessions.join(' and ')}; ${machine()}`);
  const cases = await runThroughput({
    revisions,
    sessions,
    seconds: Number(values.seconds),
    repeats: Number(values.repeats),
    progress: (l) => console.log(l),
  });
  console.log(`machine at end: ${machine()}`);
  report(cases);
}

if (process.argv[1] === import.meta.filename) await main();
