// AXL schema benchmark: cold parse of the real 15.0 schema (goal under 1 s) and of the lab's own,
// warm loads (kept parse), the operations listing, and peak RSS. Each cold run is a fresh process so
// its peak RSS is its own; a bare readFileSync + fast-xml-parser parse of the same files is the baseline.
// Warm from cache: fresh processes that find the digest a parse left (plugins/_shared/axl/schema-digest.ts)
// list the operations from it (goal under 10 ms), and load the whole schema from it and build a getPhone
// envelope (what a first call after a restart pays).
// runAxlSchema() returns the samples (bench/all.ts). Run alone: node --import tsx bench/axl-schema.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { labNode, labTlsPin, startLab } from '../lab/index.ts';
import { AxlSchemaCache, SCHEMA_FILES } from '../plugins/_shared/axl/schema-cache.ts';
import { digestDir } from '../plugins/_shared/axl/schema-digest.ts';
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
  /** Writing the digest after the cold parse (once per schema, after the caller has its answer). */
  digestMs?: number;
  /** Fresh process with a digest: operations listed from its index. */
  cacheMs?: number;
  /** Fresh process with a digest: the whole schema loaded from it and a getPhone envelope built. */
  readyMs?: number;
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
  if (mode === 'warm') {
    const ops = await cache.operations(version);
    const cacheMs = performance.now() - t0;
    const schema = await cache.load(version);
    if (schema.source !== 'digest') throw new Error('the warm run found no digest');
    schema.buildEnvelope('getPhone', { name: 'SEP0A1B2C3D4E01' });
    const readyMs = performance.now() - t0;
    print({
      coldMs: 0,
      warmUs: 0,
      listUs: 0,
      describeMs: 0,
      operations: ops.length,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      cacheMs,
      readyMs,
    });
    return;
  }
  const schema = await cache.load(version);
  const coldMs = performance.now() - t0;
  // The digest is written once, after the load returned; measured apart, and out of the way of the rest.
  const g0 = performance.now();
  await cache.digested(version);
  const digestMs = performance.now() - g0;
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
    digestMs,
  });
}

function print(s: Sample): void {
  process.stdout.write(JSON.stringify(s) + '\n');
}

function measure(root: string, version: string, mode: string): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    // A cold run finds no digest (each writes one); a warm run finds the last one written.
    if (mode === 'load') rmSync(digestDir(join(root, 'axl')), { recursive: true, force: true });
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
  const m = (k: keyof Sample): number => median(samples.map((s) => s[k] ?? 0));
  const opt = (k: keyof Sample, digits: number): string =>
    samples.some((s) => s[k] !== undefined) ? m(k).toFixed(digits) : '-';
  return [
    what,
    m('coldMs') ? m('coldMs').toFixed(0) : '-',
    m('warmUs') ? m('warmUs').toFixed(2) : '-',
    m('listUs') ? m('listUs').toFixed(1) : '-',
    m('describeMs') ? m('describeMs').toFixed(1) : '-',
    m('operations') ? String(m('operations')) : '-',
    m('maxRssMb').toFixed(0),
    opt('digestMs', 0),
    opt('cacheMs', 2),
    opt('readyMs', 0),
  ];
}

export interface AxlSchemaFigures {
  /**
   * Fresh processes each: the cold loader (no digest), the bare fast-xml-parser parse, and the warm
   * loader (the digest the cold runs wrote).
   */
  lab: { load: Sample[]; baseline: Sample[]; warm: Sample[] };
  /** The real CUCM 15.0 schema; absent when the fixtures are not beside the checkout. */
  real?: { load: Sample[]; baseline: Sample[]; warm: Sample[] };
}

export const medianOf = (samples: Sample[], k: keyof Sample): number => median(samples.map((s) => s[k] ?? 0));

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
        ...labTlsPin(lab.info, cucm),
        cache,
      });
    } finally {
      await lab.stop();
    }
    const out: AxlSchemaFigures = {
      lab: {
        baseline: measure(join(dir, 'lab-cache'), '15.0', 'baseline'),
        load: measure(join(dir, 'lab-cache'), '15.0', 'load'),
        warm: measure(join(dir, 'lab-cache'), '15.0', 'warm'),
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
        warm: measure(join(dir, 'real-cache'), '15.0', 'warm'),
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
    row('lab schema: from its digest', f.lab.warm),
  ];
  if (f.real) {
    rows.push(row('real 15.0: fast-xml-parser baseline', f.real.baseline));
    rows.push(row('real 15.0: strong-soap load', f.real.load));
    rows.push(row('real 15.0: from its digest', f.real.warm));
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
    'digest ms',
    'from cache ms',
    'ready ms',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log(
    'target: real 15.0 cold load under 1000 ms; warm from cache (a fresh process listing operations from the digest) under 10 ms',
  );
  console.log(
    'warm µs: kept parse, same process; digest ms: writing the digest after a cold load (once); ready ms: a fresh process loading the whole schema from the digest and building a getPhone envelope',
  );
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as string, process.argv[4] as string, process.argv[5] as string);
} else if (process.argv[1] === import.meta.filename) {
  await main();
}
