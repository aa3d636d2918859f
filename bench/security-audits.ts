// The three security audits run as an agent would (the checklist's tool calls through a real MCP client,
// then the report and its PDF) against the weak and the hardened lab: tool calls, findings, wall time.
// Baseline in the same run: the same number of calls of a trivial tool (infra_health) on the same
// session, i.e. the cost of the MCP round trips alone. Then random combinations of each product's
// weaknesses (a seeded PRNG: the seed is printed, and --seed repeats a run), each on a lab seeded with
// exactly that set: combinations tried, recall, false positives, unjudged checks, wall time.
//   node --import tsx bench/security-audits.ts [--product cucm|imp|cuc] [--combinations N] [--seed S] [--each]
//   node --import tsx bench/security-audits.ts --product cucm --weaknesses <id>,<id> [--json]
// --each audits every weakness alone as well. --weaknesses audits one lab seeded with exactly those ids;
// --json prints {"product","seeded","found","unjudged"} and exits non-zero when found differs from seeded.
import { parseArgs } from 'node:util';
import {
  parseWeaknessList,
  resolveWeaknesses,
  seededWeaknesses,
  weaknessesOf,
} from '../lab/weaknesses/index.ts';
import type { Checklist } from '../plugins/_shared/audit/checklist.ts';
import { CUC_CHECKLIST } from '../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../plugins/imp/audit/checklist.ts';
import {
  checksOf,
  randomCombinations,
  startCombinationStack,
  type CombinationRun,
} from '../test/helpers/audit-combinations.ts';
import { auditStack, runAudit } from '../test/helpers/audit-run.ts';

type Product = 'cucm' | 'imp' | 'cuc';
const CHECKLISTS: Record<Product, Checklist> = {
  cucm: CUCM_CHECKLIST,
  imp: IMP_CHECKLIST,
  cuc: CUC_CHECKLIST,
};

const USAGE = `usage: node --import tsx bench/security-audits.ts [--product cucm|imp|cuc] [--combinations N] [--seed S] [--each]
       node --import tsx bench/security-audits.ts --product cucm|imp|cuc --weaknesses <id>,<id> [--json]`;

function usage(message: string): never {
  process.stderr.write(`security-audits: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function options(): ReturnType<typeof parse> {
  try {
    return parse();
  } catch (err) {
    usage((err as Error).message);
  }
}

function parse() {
  return parseArgs({
    options: {
      product: { type: 'string' },
      weaknesses: { type: 'string' },
      json: { type: 'boolean', default: false },
      combinations: { type: 'string', default: '5' },
      seed: { type: 'string' },
      each: { type: 'boolean', default: false },
    },
  });
}

const { values } = options();

function productOf(name: string): Product {
  if (!(name in CHECKLISTS)) usage(`unknown product ${name}: use cucm, imp or cuc`);
  return name as Product;
}

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/** One lab seeded with exactly `ids`, audited as the auditor: the report's JSON line or a table row. */
async function auditList(product: Product, ids: string[]): Promise<boolean> {
  // The same refusal the lab gives, before anything starts: an unknown id names itself.
  resolveWeaknesses('weak', ids);
  const foreign = ids.filter((id) => !weaknessesOf(product).some((w) => w.id === id));
  if (foreign.length > 0)
    usage(`${foreign.join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not a ${product} weakness`);
  const s = await auditStack(product, { weaknesses: ids });
  try {
    const a = await runAudit(s, CHECKLISTS[product], `bench-${product}-list.md`);
    const seeded = checksOf(product, ids);
    const found = sorted(a.run.findings.map((f) => f.check));
    const ok = JSON.stringify(seeded) === JSON.stringify(found) && a.run.unjudged.length === 0;
    if (values.json)
      process.stdout.write(`${JSON.stringify({ product, seeded, found, unjudged: a.run.unjudged })}\n`);
    else
      process.stdout.write(
        `${product}: seeded ${seeded.join(', ') || '(none)'}\n  found ${found.join(', ') || '(none)'}\n` +
          `  unjudged ${a.run.unjudged.map((u) => `${u.check} (${u.reason})`).join('; ') || '(none)'}\n` +
          `  ${a.run.calls} calls, ${a.wallMs.toFixed(0)} ms: ${ok ? 'exactly the seeded checks' : 'MISMATCH'}\n`,
      );
    return ok;
  } finally {
    await s.stop();
  }
}

/** The weak and hardened profiles, as before: one row each. */
async function profiles(product: Product): Promise<boolean> {
  let ok = true;
  const checklist = CHECKLISTS[product];
  for (const profile of ['weak', 'hardened'] as const) {
    const s = await auditStack(product, profile);
    try {
      const a = await runAudit(s, checklist, `bench-${product}-${profile}.md`);
      const started = performance.now();
      for (let i = 0; i < a.run.calls; i++) await s.mcp.auditor.call('infra_health', {});
      const baseline = performance.now() - started;
      const seeded = new Set(seededWeaknesses(profile, product).map((w) => w.check));
      const found = new Set(a.run.findings.map((f) => f.check));
      const recall = seeded.size === 0 ? 1 : [...seeded].filter((c) => found.has(c)).length / seeded.size;
      const extra = [...found].filter((c) => !seeded.has(c)).length;
      if (recall < 1 || extra > 0 || a.run.unjudged.length > 0) ok = false;
      const byTool = Object.entries(a.run.callsByTool)
        .map(([t, n]) => `${t.replace(/^[a-z]+_/, '')} ${n}`)
        .join(', ');
      process.stdout.write(
        `${product.padEnd(9)} ${profile.padEnd(9)} ${String(checklist.checks.length).padStart(6)}  ${String(a.run.calls).padStart(5)}  ${byTool.padEnd(52)} ${String(found.size).padStart(8)}  ${String(seeded.size).padStart(6)}  ${(recall * 100).toFixed(0).padStart(5)}%  ${a.wallMs.toFixed(0).padStart(7)}  ${baseline.toFixed(0).padStart(11)}${extra ? `  (${extra} false positives)` : ''}${a.run.unjudged.length ? `  (${a.run.unjudged.length} unjudged)` : ''}\n`,
      );
    } finally {
      await s.stop();
    }
  }
  return ok;
}

interface Tally {
  tried: number;
  seeded: number;
  hit: number;
  falsePositives: number;
  unjudged: number;
  wallMs: number[];
  failures: string[];
}

function tally(t: Tally, r: CombinationRun): void {
  t.tried++;
  t.seeded += r.seeded.length;
  t.hit += r.seeded.filter((c) => r.found.includes(c)).length;
  const extra = r.found.filter((c) => !r.seeded.includes(c));
  t.falsePositives += extra.length;
  t.unjudged += r.unjudged.length;
  t.wallMs.push(r.wallMs);
  const missed = r.seeded.filter((c) => !r.found.includes(c));
  if (missed.length || extra.length || r.unjudged.length)
    t.failures.push(
      `[${r.weaknesses.join(',')}]: ${[
        ...(missed.length ? [`missed ${missed.join(' ')}`] : []),
        ...(extra.length ? [`false positive ${extra.join(' ')}`] : []),
        ...(r.unjudged.length ? [`unjudged ${r.unjudged.map((u) => u.check).join(' ')}`] : []),
      ].join('; ')}`,
    );
}

/** Random sets (and, with --each, every weakness alone) on one kernel, a fresh lab each. */
async function combinations(product: Product, count: number, seed: number): Promise<boolean> {
  const stack = await startCombinationStack(CHECKLISTS[product]);
  const t: Tally = { tried: 0, seeded: 0, hit: 0, falsePositives: 0, unjudged: 0, wallMs: [], failures: [] };
  let baseline: number;
  try {
    const sets = [
      ...randomCombinations(product, count, seed),
      ...(values.each ? [[], ...weaknessesOf(product).map((w) => [w.id])] : []),
    ];
    let calls = 0;
    for (const set of sets) {
      const r = await stack.audit(set);
      calls = r.run.calls;
      tally(t, r);
    }
    const started = performance.now();
    for (let i = 0; i < calls; i++) await stack.call('infra_health', {});
    baseline = performance.now() - started;
  } finally {
    await stack.stop();
  }
  const ms = [...t.wallMs].sort((a, b) => a - b);
  const median = ms.length
    ? (ms[Math.floor((ms.length - 1) / 2)]! + ms[Math.ceil((ms.length - 1) / 2)]!) / 2
    : 0;
  const recall = t.seeded === 0 ? 1 : t.hit / t.seeded;
  process.stdout.write(
    `${product.padEnd(9)} ${String(t.tried).padStart(12)}  ${(recall * 100).toFixed(1).padStart(6)}%  ${String(t.falsePositives).padStart(15)}  ${String(t.unjudged).padStart(8)}  ${`${(ms[0] ?? 0).toFixed(0)} / ${median.toFixed(0)} / ${(ms.at(-1) ?? 0).toFixed(0)}`.padStart(22)}  ${baseline.toFixed(0).padStart(11)}\n`,
  );
  for (const f of t.failures) process.stdout.write(`          ${f}\n`);
  return t.failures.length === 0;
}

async function main(): Promise<void> {
  if (values.weaknesses !== undefined) {
    if (!values.product) usage('--weaknesses needs --product');
    const ok = await auditList(productOf(values.product), parseWeaknessList(values.weaknesses));
    process.exitCode = ok ? 0 : 1;
    return;
  }
  if (values.json) usage('--json goes with --product and --weaknesses');
  const products = values.product ? [productOf(values.product)] : (Object.keys(CHECKLISTS) as Product[]);
  const count = Number(values.combinations);
  if (!Number.isInteger(count) || count < 0)
    usage(`--combinations must be a whole number, got ${values.combinations}`);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) usage(`--seed must be a whole number, got ${values.seed}`);
  let ok = true;
  process.stdout.write(
    'product   lab       checks  calls  by tool                                              findings  seeded  recall  wall ms  baseline ms\n',
  );
  for (const product of products) ok = (await profiles(product)) && ok;
  process.stdout.write(
    `\nRandom combinations: ${count} per product, seed ${seed} (repeat with --seed ${seed})${values.each ? ', then each weakness alone and none' : ''}\n` +
      'product   combinations   recall  false positives  unjudged  wall ms min/median/max  baseline ms\n',
  );
  for (const product of products) ok = (await combinations(product, count, seed)) && ok;
  process.stdout.write(
    ok ? 'every seeded weakness found, no false positive\n' : 'MISSED OR FALSE FINDINGS\n',
  );
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  // A bad weakness id is the caller's to fix: its message; anything else with its stack.
  process.stderr.write(
    `${err instanceof RangeError ? err.message : ((err as Error).stack ?? String(err))}\n`,
  );
  process.exit(1);
});
