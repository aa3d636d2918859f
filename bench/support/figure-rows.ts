// From the benchmarks' results to the rows of the figures table (issue 19's figures, with their goals).
import type { AxlCallFigures } from '../axl-call.ts';
import { medianOf, type AxlSchemaFigures } from '../axl-schema.ts';
import type { ThroughputCase } from '../mcp-throughput.ts';
import type { FootprintResult } from '../server-footprint.ts';
import type { LeanClientResult } from './lean-client.ts';
import type { Figure } from './figures.ts';
import { median, type Spread } from './stats.ts';

const spreadText = (s: Spread, digits: number, unit = '', sign = false): string =>
  [s.min, s.median, s.max].map((x) => `${sign && x >= 0 ? '+' : ''}${x.toFixed(digits)}${unit}`).join(' / ');
const m = (rs: LeanClientResult[], k: keyof LeanClientResult): number => median(rs.map((r) => r[k]));

export function throughputRows(cases: ThroughputCase[]): Figure[] {
  const rows: Figure[] = [];
  for (const c of cases) {
    const tag = `${c.sessions} session${c.sessions === 1 ? '' : 's'}, MCP ${c.revision}`;
    rows.push({
      figure: `infra_health calls/s, kernel / bare SDK echo, ${tag}`,
      measured: `${m(c.kernel, 'perSecond').toFixed(0)}/s`,
      baseline: `${m(c.bare, 'perSecond').toFixed(0)}/s`,
      ratio: spreadText(c.ratio, 2),
      goal: '>= 0.8',
      met: c.ratio.median >= 0.8,
    });
  }
  for (const c of cases.filter((x) => x.sessions === Math.max(...cases.map((y) => y.sessions)))) {
    rows.push({
      figure: `server CPU per call / bare SDK, ${c.sessions} sessions, MCP ${c.revision}`,
      measured: `${m(c.kernel, 'cpuUsPerCall').toFixed(0)} µs`,
      baseline: `${m(c.bare, 'cpuUsPerCall').toFixed(0)} µs`,
      ratio: spreadText(c.cpuRatio, 2, 'x'),
      goal: '<= 1.5x',
      met: c.cpuRatio.median <= 1.5,
    });
  }
  for (const c of cases.filter((x) => x.sessions === 1)) {
    rows.push({
      figure: `p50 added per call, 1 session, MCP ${c.revision}`,
      measured: `${m(c.kernel, 'p50').toFixed(2)} ms`,
      baseline: `${m(c.bare, 'p50').toFixed(2)} ms`,
      ratio: spreadText(c.p50AddedMs, 2, ' ms', true),
      goal: '<= +0.5 ms',
      met: c.p50AddedMs.median <= 0.5,
    });
  }
  return rows;
}

export function footprintRows(f: FootprintResult): Figure[] {
  const k = f.startupMs.kernel;
  const b = f.startupMs.bare;
  const curve = f.pdf.afterPssMb.map((a) => `${a.seconds} s: ${a.pssMb.toFixed(0)}`).join(', ');
  return [
    {
      figure: 'startup to /health with existing keys',
      measured: `${(k.median / 1000).toFixed(2)} s`,
      baseline: `${(b.median / 1000).toFixed(2)} s`,
      ratio: `${(k.min / b.median).toFixed(1)}x / ${(k.median / b.median).toFixed(1)}x / ${(k.max / b.median).toFixed(1)}x`,
      goal: '< 1.5 s',
      met: k.median < 1500,
    },
    {
      figure: 'idle RSS of the server',
      measured: `${f.idleRssMb.kernel.toFixed(0)} MB`,
      baseline: `${f.idleRssMb.bare.toFixed(0)} MB`,
      ratio: `${(f.idleRssMb.kernel / f.idleRssMb.bare).toFixed(2)}x`,
      goal: '< 120 MB',
      met: f.idleRssMb.kernel < 120,
    },
    {
      figure: `PSS (server, report workers, Chromium) after one PDF export (${curve} MB)`,
      measured: `${signedMb((f.pdf.afterPssMb[0]?.pssMb ?? 0) - f.pdf.idlePssMb)} at 0 s, ${signedMb((f.pdf.afterPssMb.at(-1)?.pssMb ?? 0) - f.pdf.idlePssMb)} at 60 s`,
      baseline: `${f.pdf.idlePssMb.toFixed(0)} MB idle`,
      ratio: '-',
      goal: 'back to idle within 60 s',
      met: f.pdf.backToIdle,
    },
  ];
}

/** A difference in MB with its sign: +12 MB, -3 MB. */
function signedMb(mb: number): string {
  return `${mb >= 0 ? '+' : ''}${mb.toFixed(0)} MB`;
}

export function axlRows(schema: AxlSchemaFigures, call: AxlCallFigures): Figure[] {
  const rows: Figure[] = [];
  if (schema.real) {
    const cold = schema.real.load.map((s) => s.coldMs);
    const base = medianOf(schema.real.baseline, 'coldMs');
    rows.push(
      {
        figure: 'real AXL 15.0 schema, cold load (fresh process)',
        measured: `${medianOf(schema.real.load, 'coldMs').toFixed(0)} ms`,
        baseline: `${base.toFixed(0)} ms (fast-xml-parser)`,
        ratio: spreadText(
          { min: Math.min(...cold) / base, median: median(cold) / base, max: Math.max(...cold) / base },
          1,
          'x',
        ),
        goal: '< 1 s',
        met: median(cold) < 1000,
      },
      {
        figure: 'real AXL 15.0 schema, warm from cache (fresh process, operations from the digest)',
        measured: `${medianOf(schema.real.warm, 'cacheMs').toFixed(2)} ms (whole schema and first envelope: ${medianOf(schema.real.warm, 'readyMs').toFixed(0)} ms)`,
        baseline: '-',
        ratio: '-',
        goal: '< 10 ms',
        met: medianOf(schema.real.warm, 'cacheMs') < 10,
      },
    );
  }
  rows.push({
    figure: `cucm_axl_call getPhone p50 added over a raw SOAP POST (lab ${call.serviceMs} ms service time)`,
    measured: `${call.fullP50.toFixed(2)} ms`,
    baseline: `${call.rawP50.toFixed(2)} ms`,
    ratio: `${call.addedP50 >= 0 ? '+' : ''}${call.addedP50.toFixed(2)} ms (${(call.fullP50 / call.rawP50).toFixed(2)}x)`,
    goal: '<= +2 ms',
    met: call.addedP50 <= 2,
  });
  return rows;
}
