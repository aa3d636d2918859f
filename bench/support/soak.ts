// The soak, shared by bench/soak.ts (long run) and test/reliability/load/soak.test.ts (bounded run):
// many concurrent MCP sessions (real SDK clients, Streamable HTTP over HTTPS) calling a realistic mix of
// read tools against the lab, every answer checked; then the bounds (no unexpected error, sessions and
// file descriptors back to their level after warm-up, memory within 10% of it).
//
// Phases: warm-up (the sessions open, run the mix, close: JIT, TLS, vault keys, pools, schema caches),
// settle, probe; soak (new sessions, same mix, latencies recorded), settle, probe. Each probe reads the
// server's VmRSS, then has it run a full GC and reads VmRSS again (the bound is on that one: the memory
// held, not the garbage not yet collected), its open file descriptors once steady (after the soak: as soon
// as they are back to the warm-up level), and its MCP session count (GET /metrics, ucmcp_mcp_sessions).
import { connectMcp, type ConnectedClient } from '../../test/helpers/mcp-client.ts';
import { labNode } from '../../lab/index.ts';
import type { LabInfo } from '../../lab/types.ts';
import { startSoakStack, type ServerProbe, type SoakStack } from './soak-stack.ts';

export interface SoakOptions {
  sessions: number;
  seconds: number;
  /** Warm-up: every session runs the whole mix this many times (as much warming on a slow machine as on a fast one). */
  warmupRounds: number;
  /** Sessions per client (the server keeps at most 32 per client). Default 10. */
  sessionsPerClient?: number;
  /** Wait after the sessions close before probing: outbound keep-alive sockets time out (5 s). Default 6 s. */
  settleMs?: number;
  /** RSS after the soak may exceed RSS after warm-up by this fraction. Default 0.10. */
  rssTolerance?: number;
  progress?: (line: string) => void;
}

type Structured = Record<string, unknown>;

interface MixEntry {
  /** Label in the report (the tool, or tool:variant). */
  label: string;
  tool: string;
  args: Record<string, unknown>;
  /** True when the answer is what the lab holds. */
  check: (s: Structured) => boolean;
  /** Called at most once per this many ms across all sessions (a session whose turn comes too early skips it). */
  everyMs?: number;
}

/** The read-only mix, one entry per kind of call an agent makes against a cluster. */
export function toolMix(lab: LabInfo): MixEntry[] {
  const cucm = labNode(lab, 'cucm').name;
  const imp = labNode(lab, 'imp').name;
  const cuc = labNode(lab, 'cuc').name;
  const str = (v: unknown) => typeof v === 'string' && v.length > 0;
  return [
    { label: 'infra_health', tool: 'infra_health', args: {}, check: (s) => s.license === 'VALID' },
    {
      label: 'cucm_get_version',
      tool: 'cucm_get_version',
      args: { host: cucm },
      check: (s) => str(s.version),
    },
    {
      label: 'cucm_axl_call:listPhone',
      tool: 'cucm_axl_call',
      args: {
        host: cucm,
        operation: 'listPhone',
        args: { searchCriteria: { name: 'SEP%' }, returnedTags: { name: '', model: '' } },
        first: 20,
      },
      check: (s) => Number(s.count) > 0,
    },
    {
      label: 'cucm_axl_call:getPhone',
      tool: 'cucm_axl_call',
      args: { host: cucm, operation: 'getPhone', args: { name: 'SEP0A1B2C3D4E01' } },
      check: (s) => JSON.stringify(s).includes('SEP0A1B2C3D4E01'),
    },
    {
      // The server keeps within the cluster's RisPort70 budget (15 requests a minute, whoever sends them,
      // as the node enforces), so a query beyond it is refused by design: one every 4.5 s stays inside.
      label: 'cucm_risport_query',
      tool: 'cucm_risport_query',
      args: { host: cucm },
      check: (s) => Number(s.devices_returned) > 0,
      everyMs: 4_500,
    },
    {
      label: 'cucm_os_run_command',
      tool: 'cucm_os_run_command',
      args: { host: cucm, command: 'show version active' },
      check: (s) => /version/i.test(String(s.output)),
    },
    {
      label: 'cucm_list_credentials',
      tool: 'cucm_list_credentials',
      args: {},
      check: (s) => hasHost(s, cucm),
    },
    { label: 'imp_get_version', tool: 'imp_get_version', args: { host: imp }, check: (s) => str(s.version) },
    { label: 'cuc_get_version', tool: 'cuc_get_version', args: { host: cuc }, check: (s) => str(s.version) },
    {
      label: 'cuc_cupi_list',
      tool: 'cuc_cupi_list',
      args: { host: cuc, resource: 'users', rowsPerPage: 10 },
      check: (s) => Number(s.count) > 0,
    },
  ];
}

const hasHost = (s: Structured, host: string) => JSON.stringify(s).includes(`"${host.toLowerCase()}"`);

export interface Recorder {
  latencies: Map<string, number[]>;
  errors: Map<string, number>;
  samples: string[];
}

export const recorder = (): Recorder => ({ latencies: new Map(), errors: new Map(), samples: [] });

function fail(rec: Recorder, label: string, what: string): void {
  rec.errors.set(label, (rec.errors.get(label) ?? 0) + 1);
  if (rec.samples.length < 20) rec.samples.push(`${label}: ${what.slice(0, 300)}`);
}

async function callOnce(c: ConnectedClient, m: MixEntry, rec: Recorder): Promise<void> {
  const t0 = performance.now();
  let outcome: string | undefined;
  try {
    const r = await c.call(m.tool, m.args);
    const s = r.structuredContent;
    if (r.isError) outcome = `tool error ${JSON.stringify(s ?? r.content)}`;
    else if (!s || !m.check(s)) outcome = `unexpected answer ${JSON.stringify(s ?? r.content)}`;
  } catch (err) {
    // Transport failures and JSON-RPC errors (McpError) are thrown by the SDK client.
    outcome = `thrown ${(err as Error).name}: ${(err as Error).message}`;
  }
  if (outcome) fail(rec, m.label, outcome);
  else {
    const list = rec.latencies.get(m.label) ?? [];
    list.push(performance.now() - t0);
    rec.latencies.set(m.label, list);
  }
}

/**
 * Opens the sessions, runs the mix in every one until `ms` have passed (each session starts at its own
 * place in the mix), then closes them (DELETE, as a client that is done does). Session opening and
 * closing failures are errors of their own.
 */
export async function drive(
  stack: SoakStack,
  mix: MixEntry[],
  o: {
    sessions: number;
    perClient: number;
    /** Until this many ms have passed, or until every session ran the mix this many times. */
    until: { ms: number } | { rounds: number };
    rec: Recorder;
    during?: () => Promise<void>;
  },
): Promise<{ calls: number; elapsedS: number }> {
  const fetch = stack.fetch();
  const open = await Promise.all(
    Array.from({ length: o.sessions }, (_, i) => {
      const client = stack.clients[Math.floor(i / o.perClient)] as { token: string };
      return connectMcp({ url: stack.url, fetch }, client.token);
    }),
  );
  let calls = 0;
  const t0 = performance.now();
  const end = 'ms' in o.until ? t0 + o.until.ms : Infinity;
  const turns = 'rounds' in o.until ? o.until.rounds * mix.length : Infinity;
  const nextAt = new Map<MixEntry, number>();
  const loops = open.map(async (c, i) => {
    for (let n = i; n < i + turns && performance.now() < end; n++) {
      const m = mix[n % mix.length] as MixEntry;
      if (m.everyMs !== undefined) {
        const now = performance.now();
        if (now < (nextAt.get(m) ?? 0)) continue;
        nextAt.set(m, now + m.everyMs);
      }
      await callOnce(c, m, o.rec);
      calls++;
    }
  });
  await Promise.all([...loops, o.during?.()]);
  const elapsedS = (performance.now() - t0) / 1000;
  await Promise.all(
    open.map(async (c) => {
      try {
        await c.transport.terminateSession();
      } catch (err) {
        fail(o.rec, 'session close', (err as Error).message);
      }
      await c.client.close();
    }),
  );
  await fetch.close();
  return { calls, elapsedS };
}

export interface Quantiles {
  calls: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface SoakResult {
  sessions: number;
  clients: number;
  warmup: { calls: number; seconds: number };
  seconds: number;
  calls: number;
  errors: number;
  errorSamples: string[];
  perSecond: number;
  overall: Quantiles;
  perTool: Record<string, Quantiles>;
  /** Server sessions counted while the soak ran (all of them should be open). */
  sessionsDuring: number;
  start: ServerProbe;
  warm: ServerProbe;
  after: ServerProbe;
  rssTolerance: number;
  serverExit: number | null;
}

function quantiles(latencies: number[], errors: number): Quantiles {
  const xs = [...latencies].sort((a, b) => a - b);
  const q = (p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
  return {
    calls: xs.length + errors,
    errors,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    max: xs.at(-1) ?? NaN,
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const perClient = o.sessionsPerClient ?? 10;
  const settleMs = o.settleMs ?? 6_000;
  const say = o.progress ?? (() => undefined);
  const clients = Math.ceil(o.sessions / perClient);
  say(`starting the lab and the server (${clients} clients)`);
  const stack = await startSoakStack({ clients });
  let serverExit: number | null = null;
  try {
    const mix = toolMix(stack.lab.info);
    const start = await stack.probe();
    say(`warm-up: ${o.sessions} sessions, ${o.warmupRounds} rounds of the mix each`);
    const warmRec = recorder();
    const warmup = await drive(stack, mix, {
      sessions: o.sessions,
      perClient,
      until: { rounds: o.warmupRounds },
      rec: warmRec,
    });
    await pause(settleMs);
    const warm = await stack.probe();
    say(`soak: ${o.sessions} sessions for ${o.seconds} s`);
    const rec = recorder();
    let sessionsDuring = -1;
    const { calls, elapsedS } = await drive(stack, mix, {
      sessions: o.sessions,
      perClient,
      until: { ms: o.seconds * 1000 },
      rec,
      during: async () => {
        await pause((o.seconds * 1000) / 2);
        sessionsDuring = await stack.sessions();
      },
    });
    say('settling');
    await pause(settleMs);
    const after = await stack.probe(warm.fds);
    if (!stack.alive()) throw new Error('the server process died during the soak');
    serverExit = await stack.stop();
    const all = [...rec.latencies.values()].flat();
    // Errors during warm-up are as unexpected as any: reported beside the soak's own.
    for (const [label, n] of warmRec.errors) rec.errors.set(`warm-up ${label}`, n);
    rec.samples.push(...warmRec.samples.map((x) => `warm-up ${x}`));
    const errors = [...rec.errors.values()].reduce((a, b) => a + b, 0);
    const perTool: Record<string, Quantiles> = {};
    for (const label of [...mix.map((m) => m.label), ...rec.errors.keys()])
      perTool[label] ??= quantiles(rec.latencies.get(label) ?? [], rec.errors.get(label) ?? 0);
    return {
      sessions: o.sessions,
      clients,
      warmup: { calls: warmup.calls, seconds: warmup.elapsedS },
      seconds: elapsedS,
      calls,
      errors,
      errorSamples: rec.samples,
      perSecond: calls / elapsedS,
      overall: quantiles(all, errors),
      perTool,
      sessionsDuring,
      start,
      warm,
      after,
      rssTolerance: o.rssTolerance ?? 0.1,
      serverExit,
    };
  } finally {
    if (serverExit === null) await stack.stop().catch(() => undefined);
  }
}

/** Every bound the run violates, in words; empty when the run held. */
export function soakViolations(r: SoakResult): string[] {
  const v: string[] = [];
  if (r.errors > 0) v.push(`${r.errors} unexpected errors, e.g. ${r.errorSamples.slice(0, 3).join(' | ')}`);
  for (const [label, q] of Object.entries(r.perTool)) if (q.calls === 0) v.push(`${label} was never called`);
  if (r.sessionsDuring !== r.sessions)
    v.push(`the server counted ${r.sessionsDuring} sessions during the soak, not ${r.sessions}`);
  if (r.warm.sessions !== r.start.sessions || r.after.sessions !== r.start.sessions)
    v.push(
      `sessions left open: ${r.start.sessions} at start, ${r.warm.sessions} after warm-up, ${r.after.sessions} after`,
    );
  if (r.after.fds > r.warm.fds)
    v.push(`file descriptors grew from ${r.warm.fds} after warm-up to ${r.after.fds}`);
  const limit = r.warm.rssAfterGcKb * (1 + r.rssTolerance);
  if (r.after.rssAfterGcKb > limit)
    v.push(
      `RSS ${mb(r.after.rssAfterGcKb)} after the soak exceeds ${mb(r.warm.rssAfterGcKb)} after warm-up by more than ${r.rssTolerance * 100}%`,
    );
  if (r.serverExit !== 0) v.push(`the server exited with ${r.serverExit} on SIGTERM`);
  return v;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;
const ms = (x: number) => x.toFixed(1);

export function formatSoak(r: SoakResult): string {
  const lines = [
    `warm-up: ${r.warmup.calls} calls in ${r.warmup.seconds.toFixed(1)} s`,
    `soak: ${r.sessions} sessions (${r.clients} clients), ${r.seconds.toFixed(1)} s: ${r.calls} calls, ${r.errors} errors, ${r.perSecond.toFixed(1)} calls/s`,
    '',
    '| tool | calls | errors | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---|---|---|---|---|---|',
  ];
  const row = (name: string, q: Quantiles) =>
    `| ${name} | ${q.calls} | ${q.errors} | ${ms(q.p50)} | ${ms(q.p95)} | ${ms(q.p99)} | ${ms(q.max)} |`;
  for (const [label, q] of Object.entries(r.perTool)) lines.push(row(label, q));
  lines.push(row('**all**', r.overall), '');
  const probe = (name: string, p: ServerProbe) =>
    `| ${name} | ${mb(p.rssKb)} | ${mb(p.rssAfterGcKb)} | ${mb(p.heapUsedKb)} | ${p.fds} | ${p.sessions} |`;
  lines.push(
    '| server | RSS | RSS after full GC | heap used after GC | fds | MCP sessions |',
    '|---|---|---|---|---|---|',
    probe('started', r.start),
    probe('after warm-up', r.warm),
    probe('after soak', r.after),
    '',
    `RSS growth over the soak (after GC): ${(((r.after.rssAfterGcKb - r.warm.rssAfterGcKb) / r.warm.rssAfterGcKb) * 100).toFixed(1)}% (bound ${r.rssTolerance * 100}%); sessions during the soak: ${r.sessionsDuring}`,
  );
  if (r.errorSamples.length > 0) lines.push('', 'errors:', ...r.errorSamples.map((s) => `  ${s}`));
  return lines.join('\n');
}
