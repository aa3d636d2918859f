// AXL schema benchmark: cold parse of the real 15.0 schema (goal under 1 s) and of the lab's own,
// warm loads (kept parse), the operations listing, and peak RSS. Each cold run is a fresh process so
// its peak RSS is its own; a bare readFileSync + fast-xml-parser parse of the same files is the baseline.
// runAxlSchema() returns the samples (bench/all.ts). Run alone: node --import tsx bench/axl-schema.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { labNode, startLab } from '../lab/index.ts';
import { AxlSchemaCache, SCHEMA_FILES } from '../plugins/_shared/axl/schema-cache.ts';
import { downloadAxlToolkit } from '../plugins/_shared/axl/toolkit.ts';
import { PROJECT_ROOT } from '../kernel/paths.ts';
import { median } from './support/stats.ts';

const COLD_RUNS = 3;
const REAL_FIXTURES = resolve(PROJECT_ROOT, '..', 'shared', 'fixtures', 'cucm-axl-schema', '15.0');
const WARM_LOADS = 1000;

export interface Sample {
  coldMs: number;
  warmUs: number;
  listUs: number;
  describeMs: number;
  operations: number;
  maxRssMb: number;
}

/** Runs inside a child: one measurement, printed as JSON. */
async function child(root: string, version: string, mode: string): Promise<void> {
  const t0 = performance.now();
  if (mode === 'baseline') {
    const parser = new XMLParser({ ignoreAttributes: false });
    for (const f of SCHEMA_FILES) parser.parse(readFileSync(join(root, 'axl', version, f), 'utf8'));
    const coldMs = performance.now() - t0;
    print({
      coldMs,
      warmUs: 0,
      listUs: 0,
      describeMs: 0,
      operations: 0,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    });
    return;
  }
  const cache = new AxlSchemaCache(root, 'cucm_download_axl_toolkit');
  const schema = await cache.load(version);
  const coldMs = performance.now() - t0;
  const w0 = performance.now();
  for (let i = 0; i < WARM_LOADS; i++) await cache.load(version);
  const warmUs = ((performance.now() - w0) / WARM_LOADS) * 1000;
  const l0 = performance.now();
  const ops = await cache.operations(version, 'phone');
  const listUs = (performance.now() - l0) * 1000;
  const d0 = performance.now();
  schema.describe('addPhone');
  const describeMs = performance.now() - d0;
  print({
    coldMs,
    warmUs,
    listUs,
    describeMs,
    operations: ops.length > 0 ? schema.operations().length : 0,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  });
}

function print(s: Sample): void {
  process.stdout.write(JSON.stringify(s) + '\n');
}

function measure(root: string, version: string, mode: string): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, '--child', root, version, mode],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    out.push(JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as Sample);
  }
  return out;
}

function row(what: string, samples: Sample[]): string[] {
  const m = (k: keyof Sample): number => median(samples.map((s) => s[k]));
  return [
    what,
    m('coldMs').toFixed(0),
    m('warmUs').toFixed(2),
    m('listUs').toFixed(1),
    m('describeMs').toFixed(1),
    m('operations') ? String(m('operations')) : '-',
    m('maxRssMb').toFixed(0),
  ];
}

export interface AxlSchemaFigures {
  /** Median of fresh processes each: the kept-parse loader, and the bare fast-xml-parser parse. */
  lab: { load: Sample[]; baseline: Sample[] };
  /** The real CUCM 15.0 schema; absent when the fixtures are not beside the checkout. */
  real?: { load: Sample[]; baseline: Sample[] };
}

export const medianOf = (samples: Sample[], k: keyof Sample): number => median(samples.map((s) => s[k]));

export async function runAxlSchema(): Promise<AxlSchemaFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'axl-bench-'));
  try {
    const lab = await startLab({ stateDir: join(dir, 'lab'), loginDelayMs: 50 });
    try {
      const cucm = labNode(lab.info, 'cucm');
      const creds = cucm.credentials.axl;
      if (!creds) throw new Error('the lab CUCM has no AXL credentials');
      const cache = new AxlSchemaCache(join(dir, 'lab-cache'), 'cucm_download_axl_toolkit');
      await downloadAxlToolkit({
        host: '127.0.0.1',
        port: cucm.ports.https as number,
        username: creds.user,
        password: creds.password,
        caCertPem: lab.info.caCertPem,
        cache,
      });
    } finally {
      await lab.stop();
    }
    const out: AxlSchemaFigures = {
      lab: {
        baseline: measure(join(dir, 'lab-cache'), '15.0', 'baseline'),
        load: measure(join(dir, 'lab-cache'), '15.0', 'load'),
      },
    };
    if (existsSync(REAL_FIXTURES)) {
      // Linked, not copied: the Cisco files stay outside the project.
      const real = join(dir, 'real-cache', 'axl', '15.0');
      mkdirSync(real, { recursive: true });
      for (const f of SCHEMA_FILES) symlinkSync(join(REAL_FIXTURES, f), join(real, f));
      out.real = {
        baseline: measure(join(dir, 'real-cache'), '15.0', 'baseline'),
        load: measure(join(dir, 'real-cache'), '15.0', 'load'),
      };
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const f = await runAxlSchema();
  const rows = [
    row('lab schema: fast-xml-parser baseline', f.lab.baseline),
    row('lab schema: strong-soap load', f.lab.load),
  ];
  if (f.real) {
    rows.push(row('real 15.0: fast-xml-parser baseline', f.real.baseline));
    rows.push(row('real 15.0: strong-soap load', f.real.load));
  } else {
    console.log(`skip: real 15.0 schema (${REAL_FIXTURES} is absent)`);
  }
  const head = [
    'what (median of ' + COLD_RUNS + ' fresh processes)',
    'cold ms',
    'warm µs',
    'list µs',
    'describe ms',
    'ops',
    'peak RSS MB',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log('target: real 15.0 cold load under 1000 ms; warm loads reuse the kept parse (under 10 ms)');
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as string, process.argv[4] as string, process.argv[5] as string);
} else if (process.argv[1] === import.meta.filename) {
  await main();
}
