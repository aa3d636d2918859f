// Every benchmark that needs no long soak, then one table of the figures (issue 19) with their baselines
// measured in the same run: MCP throughput, CPU and latency (bench/mcp-throughput.ts), startup and
// memory (bench/server-footprint.ts), the AXL schema (bench/axl-schema.ts) and an AXL call
// (bench/axl-call.ts); then the other short benchmarks (the enterprise-scale lab read among them,
// bench/lab-enterprise.ts), whose own output is passed through. Not run here:
// soak, crash-loop, lab-scale, security-audits, ris-paging (long, or bounded by a node's rate limit),
// scale-out (needs redis-server; several instances behind a balancer: bench/scale-out.ts).
//   npm run bench [-- --write-readme] [--repeats 3] [--seconds 4] [--figures-only]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runAxlCall } from './axl-call.ts';
import { runAxlSchema } from './axl-schema.ts';
import { REVISIONS, runThroughput } from './mcp-throughput.ts';
import { runFootprint } from './server-footprint.ts';
import { axlRows, footprintRows, throughputRows } from './support/figure-rows.ts';
import { markdownTable, writeReadme, type Figure } from './support/figures.ts';
import { spawnTsx } from './support/proc.ts';

const EXTRAS = [
  'bench/vault.ts',
  'bench/vos-shell.ts',
  'bench/tool-surface.ts',
  'bench/lab-enterprise.ts',
  'bench/lab-sql.ts',
];
// The enterprise lab (generation, start and three whole reads each way) takes minutes on a loaded machine.
const EXTRA_TIMEOUT_MS = 600_000;

const { values } = parseArgs({
  options: {
    'write-readme': { type: 'boolean', default: false },
    'figures-only': { type: 'boolean', default: false },
    repeats: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
  },
});
const log = (line: string): void => console.log(line);
const machine = (): string => `load average ${loadavg()[0]?.toFixed(2)} on ${cpus().length} cores`;

/** A short benchmark as a child, its output passed through; a failure is reported, not fatal. */
async function extra(file: string): Promise<void> {
  log(`\n## ${file}`);
  const child = spawnTsx(file);
  child.stdout?.pipe(process.stdout, { end: false });
  // A short benchmark that hangs must not hold the figures back.
  const timer = setTimeout(() => child.kill('SIGTERM'), EXTRA_TIMEOUT_MS);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  clearTimeout(timer);
  if (code !== 0) log(`(${file} failed with code ${code}: ${child.errTail().trim().slice(-500)})`);
}

async function main(): Promise<void> {
  const started = new Date();
  log(`bench: started ${started.toISOString()}, ${machine()}`);
  if (!values['figures-only']) for (const file of EXTRAS) await extra(file);
  const figures: Figure[] = [];
  // One part failing (a timeout on a loaded machine) costs its rows, not the whole table.
  const part = async (title: string, rows: () => Promise<Figure[]>): Promise<void> => {
    log(`\n## ${title}`);
    try {
      figures.push(...(await rows()));
    } catch (err) {
      log(`FAILED: ${(err as Error).stack ?? String(err)}`);
      figures.push({
        figure: title,
        measured: `failed: ${(err as Error).message.slice(0, 80)}`,
        baseline: '-',
        ratio: '-',
        goal: '-',
        met: false,
      });
    }
  };
  const repeats = Number(values.repeats);
  await part('MCP throughput (bench/mcp-throughput.ts)', async () =>
    throughputRows(
      await runThroughput({
        revisions: REVISIONS,
        sessions: [1, 16],
        seconds: Number(values.seconds),
        repeats,
        progress: log,
      }),
    ),
  );
  await part('startup and memory (bench/server-footprint.ts)', async () =>
    footprintRows(await runFootprint({ repeats, settleS: 10, progress: log })),
  );
  await part('AXL schema (bench/axl-schema.ts) and call (bench/axl-call.ts)', async () =>
    axlRows(await runAxlSchema(), await runAxlCall(20, 90)),
  );
  const table = markdownTable(figures);
  const note = `Measured by \`npm run bench\` on ${started.toISOString().slice(0, 10)}, ${cpus().length} cores (${machine()} at the end); ratio = kernel / baseline, min / median / max over ${values.repeats} alternating repeats where there are repeats.`;
  log(`\n${table}\n\n${note}`);
  if (values['write-readme']) {
    await writeReadme(`${table}\n\n${note}`);
    log('README.md: benchmark table written');
  }
}

await main();
