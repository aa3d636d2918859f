// Startup, idle memory and the memory a PDF export leaves, kernel versus the bare SDK server, each a
// fresh process on 127.0.0.1:
// - startup: from spawn to the first 200 on GET /health, the kernel on a state directory prepared by an
//   earlier run (keys, TLS, clients exist: no key generation); the bare server from spawn to its first
//   HTTP answer of any kind. Alternating kernel/bare, `--repeats` times.
// - idle RSS: VmRSS after startup, a second of calls from a lean client process, and `--settle` seconds.
// - PDF export: common_write_report then common_export_report_pdf through a real SDK client; the PSS of
//   the server and all its descendants (Chromium) from /proc/<pid>/smaps_rollup, before the export and
//   0, 15, 30 and 60 s after it.
//   node --import tsx bench/server-footprint.ts [--repeats 3] [--settle 10]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { rawHttpsRequest } from '../test/helpers/https-client.ts';
import { connectMcp } from '../test/helpers/mcp-client.ts';
import { freePort } from '../test/helpers/server-process.ts';
import type { LeanClientJob, LeanClientResult } from './support/lean-client.ts';
import { pause, processTree, rssMb, runChild, stop, treePssMb } from './support/proc.ts';
import { pinnedFetch } from '../test/helpers/https-client.ts';
import {
  benchToken,
  caFile,
  prepareKernelState,
  startBareProcess,
  startKernelProcess,
  type KernelState,
  type RunningServer,
} from './support/servers.ts';
import { spread, type Spread } from './support/stats.ts';

export interface FootprintResult {
  startupMs: { kernel: Spread; bare: Spread };
  idleRssMb: { kernel: number; bare: number };
  pdf: {
    /** Server + descendants PSS before the export, then at each delay after it (s -> MB). */
    idlePssMb: number;
    afterPssMb: { seconds: number; pssMb: number; processes: number; rssMb: number }[];
    backToIdle: boolean;
  };
}

/** Polls until the server answers (kernel: 200 on /health; bare: any status); returns ms since `t0`. */
async function firstAnswer(port: number, caPem: string, t0: number, want200: boolean): Promise<number> {
  for (;;) {
    try {
      const r = await rawHttpsRequest(`https://127.0.0.1:${port}/health`, { caPem });
      if (!want200 || r.status === 200) return performance.now() - t0;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - t0 > 60_000) throw new Error(`no answer on port ${port} within 60 s`);
    await pause(10);
  }
}

async function startupOnce(state: KernelState, side: 'kernel' | 'bare', caPem: string): Promise<number> {
  const port = side === 'kernel' ? Number(state.env.SERVER_PORT) : await freePort();
  const t0 = performance.now();
  const server = side === 'kernel' ? startKernelProcess(state) : startBareProcess(state, port);
  server.catch(() => undefined); // awaited below; a failed start must not be an unhandled rejection meanwhile
  const ms = await firstAnswer(port, caPem, t0, side === 'kernel');
  await (await server).stop();
  return ms;
}

/** A second of calls from a lean client process, then `settleS` of quiet, then VmRSS. */
async function idleRss(
  state: KernelState,
  s: RunningServer,
  kernel: boolean,
  settleS: number,
): Promise<number> {
  await runChild<LeanClientResult>('bench/support/lean-client.ts', [
    JSON.stringify({
      url: `${s.url}/mcp`,
      revision: '2025-11-25',
      ...(kernel ? { token: benchToken(state) } : {}),
      caFile: caFile(state),
      sessions: 1,
      warmupMs: 200,
      seconds: 1,
      tool: kernel ? 'infra_health' : 'common_test_echo',
      args: kernel ? {} : { text: 'ping' },
      expectKey: kernel ? 'status' : 'echo',
      serverPid: s.pid,
    } satisfies LeanClientJob),
  ]);
  await pause(settleS * 1000);
  return rssMb(s.pid);
}

async function pdfExport(state: KernelState, s: RunningServer): Promise<FootprintResult['pdf']> {
  const idlePssMb = treePssMb(s.pid).pssMb;
  const fetch = pinnedFetch(readFileSync(caFile(state), 'utf8'));
  const mcp = await connectMcp({ url: s.url, fetch }, benchToken(state));
  try {
    const content = `# Bench report\n\n## Summary\n\n${'A line of findings. '.repeat(40)}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`;
    for (const [tool, args] of [
      ['common_write_report', { name: 'bench.md', content, mode: 'create' }],
      ['common_export_report_pdf', { name: 'bench.md' }],
    ] as const) {
      // Chromium's first launch on a busy machine may pass the SDK's 60 s default.
      const r = (await mcp.client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: 300_000,
      })) as Awaited<ReturnType<typeof mcp.call>>;
      if (r.isError) throw new Error(`${tool}: ${JSON.stringify(r.structuredContent ?? r.content)}`);
    }
  } finally {
    await mcp.close();
    await fetch.close();
  }
  const t0 = performance.now();
  const afterPssMb: FootprintResult['pdf']['afterPssMb'] = [];
  for (const seconds of [0, 15, 30, 60]) {
    await pause(Math.max(0, t0 + seconds * 1000 - performance.now()));
    const { pssMb, processes } = treePssMb(s.pid);
    afterPssMb.push({ seconds, pssMb, processes, rssMb: rssMb(s.pid) });
  }
  const last = afterPssMb.at(-1) as (typeof afterPssMb)[number];
  // Back to idle: no process left under the server, and within 10% of the PSS before the export.
  return { idlePssMb, afterPssMb, backToIdle: last.processes === 1 && last.pssMb <= idlePssMb * 1.1 };
}

/** Stops the server; whatever the export left running under it (Chromium) goes with it. */
async function stopWithDescendants(s: RunningServer): Promise<void> {
  const tree = s.child.exitCode === null ? processTree(s.pid).slice(1) : [];
  await s.stop();
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone with its parent.
    }
  }
}

export async function runFootprint(o: {
  repeats: number;
  settleS: number;
  progress?: (line: string) => void;
}): Promise<FootprintResult> {
  const state = await prepareKernelState(await freePort());
  let kernel: RunningServer | undefined;
  let bare: RunningServer | undefined;
  try {
    // The first start creates the TLS certificate, the local CA and the client's credentials.
    await (await startKernelProcess(state)).stop();
    const caPem = readFileSync(caFile(state), 'utf8');
    const times = { kernel: [] as number[], bare: [] as number[] };
    for (let i = 0; i < o.repeats; i++) {
      for (const side of i % 2 === 0 ? (['kernel', 'bare'] as const) : (['bare', 'kernel'] as const))
        times[side].push(await startupOnce(state, side, caPem));
      o.progress?.(
        `  startup ${i + 1}/${o.repeats}: kernel ${times.kernel.at(-1)?.toFixed(0)} ms, bare ${times.bare.at(-1)?.toFixed(0)} ms`,
      );
    }
    kernel = await startKernelProcess(state);
    bare = await startBareProcess(state);
    const idle = {
      kernel: await idleRss(state, kernel, true, o.settleS),
      bare: await idleRss(state, bare, false, o.settleS),
    };
    await bare.stop();
    o.progress?.(
      `  idle RSS: kernel ${idle.kernel.toFixed(0)} MB, bare ${idle.bare.toFixed(0)} MB; PDF export...`,
    );
    const pdf = await pdfExport(state, kernel);
    return { startupMs: { kernel: spread(times.kernel), bare: spread(times.bare) }, idleRssMb: idle, pdf };
  } finally {
    if (kernel) await stopWithDescendants(kernel);
    if (bare) await stop(bare.child);
    state.cleanup();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { repeats: { type: 'string', default: '3' }, settle: { type: 'string', default: '10' } },
  });
  const r = await runFootprint({
    repeats: Number(values.repeats),
    settleS: Number(values.settle),
    progress: (l) => console.log(l),
  });
  const s = (x: Spread) => `${x.median.toFixed(0)} ms (${x.min.toFixed(0)} to ${x.max.toFixed(0)})`;
  console.log(
    `startup to /health, existing keys: kernel ${s(r.startupMs.kernel)}; bare to first answer ${s(r.startupMs.bare)}`,
  );
  console.log(
    `idle VmRSS: kernel ${r.idleRssMb.kernel.toFixed(0)} MB, bare ${r.idleRssMb.bare.toFixed(0)} MB`,
  );
  console.log(`PDF export: server + descendants PSS before ${r.pdf.idlePssMb.toFixed(0)} MB`);
  for (const a of r.pdf.afterPssMb)
    console.log(
      `  +${String(a.seconds).padStart(2)} s: PSS ${a.pssMb.toFixed(0)} MB over ${a.processes} process(es), server VmRSS ${a.rssMb.toFixed(0)} MB`,
    );
  console.log(`  back to idle within 60 s: ${r.pdf.backToIdle ? 'yes' : 'no'}`);
}

if (process.argv[1] === import.meta.filename) await main();
