// Audits of many weakness combinations on one kernel: each combination gets a fresh lab seeded with
// exactly those weaknesses (over the weak profile's other data), the admin re-stores the node's
// credentials through the product tools (the new lab's ports and certificate), and the checklist runs
// through the admin's real MCP client. A kernel and a login per combination would cost seconds each;
// a lab starts in tens of milliseconds. Shared by the combination tests and the benchmark (--each).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Lab } from '../../lab/index.ts';
import { labNode } from '../../lab/index.ts';
import { weaknessesOf, type WeaknessProduct } from '../../lab/weaknesses/index.ts';
import { PROJECT_ROOT } from '../../kernel/paths.ts';
import type { Checklist } from '../../plugins/_shared/audit/checklist.ts';
import {
  runChecklist,
  type ChecklistRun,
  type ToolCaller,
} from '../../plugins/_shared/audit/run-checklist.ts';
import { startTestLab } from '../lab/helpers.ts';
import { mcpCaller } from './audit-run.ts';
import { labCredential, prepareNode, startProductStack } from './product-stack.ts';
import { tempStateDir } from './state-dir.ts';

export interface CombinationRun {
  /** The weakness ids the lab seeded. */
  weaknesses: string[];
  /** The checks those weaknesses name (what the audit must find, exactly). */
  seeded: string[];
  found: string[];
  unjudged: ChecklistRun['unjudged'];
  run: ChecklistRun;
  /** The checklist's wall time (the lab restart and credential update excluded). */
  wallMs: number;
}

export interface CombinationStack {
  audit(weaknesses: readonly string[]): Promise<CombinationRun>;
  /** A tool call on the audits' own session (the benchmark's baseline). */
  call: ToolCaller;
  stop(): Promise<void>;
}

/** The checks a set of weakness ids makes fire for the product, sorted. */
export function checksOf(product: WeaknessProduct, weaknesses: readonly string[]): string[] {
  const ids = new Set(weaknesses);
  return [...new Set(weaknessesOf(product).flatMap((w) => (ids.has(w.id) ? [w.check] : [])))].sort();
}

/**
 * The shipped admin profile with every rate-limit window's limit multiplied: the sweep makes many
 * audits a minute on one session, which the shipped limits (rightly) refuse. Tools, allowlists and
 * product scope are the shipped ones, so every call is judged exactly as in production.
 */
export function writeBusyAdminProfile(stateDir: string): void {
  const profile = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'profiles', '_default', 'admin.json'), 'utf8'),
  ) as { rateLimits?: Record<string, Record<string, { limit: number; windowSeconds: number }>> };
  for (const services of Object.values(profile.rateLimits ?? {}))
    for (const window of Object.values(services)) window.limit *= 100;
  mkdirSync(join(stateDir, 'profiles'), { recursive: true });
  writeFileSync(join(stateDir, 'profiles', 'admin.json'), `${JSON.stringify(profile, null, 2)}\n`);
}

export async function startCombinationStack(checklist: Checklist): Promise<CombinationStack> {
  const product = checklist.product as WeaknessProduct;
  const state = tempStateDir('ucmcp-combinations-');
  writeBusyAdminProfile(state.dir);
  let s;
  try {
    s = await startProductStack({ lab: { weaknesses: [] }, stateDir: state.dir, seedVaultFor: [] });
  } catch (err) {
    state.cleanup();
    throw err;
  }
  const stack = s;
  let lab: Lab = stack.lab;
  try {
    await prepareNode(stack, product);
    if (product === 'cucm')
      await stack.ok('admin', 'cucm_download_ris_toolkit', { host: stack.node('cucm').name });
  } catch (err) {
    await stack.stop();
    state.cleanup();
    throw err;
  }
  const call = mcpCaller(stack.mcp.admin);
  const toolkits = new Set([labNode(lab.info, product).version]);
  return {
    call,
    async audit(weaknesses) {
      await lab.stop();
      lab = await startTestLab({ weaknesses });
      const node = labNode(lab.info, product);
      await stack.ok(
        'admin',
        `${product}_update_credentials`,
        labCredential(lab, node, product === 'cuc' ? 'cupi' : 'axl'),
      );
      await stack.ok('admin', `${product}_os_update_credentials`, labCredential(lab, node, 'os'));
      // A weakness may change the node's release (and so the AXL schemas it serves): the admin fetches
      // that release's toolkit once, as after an upgrade.
      if (product !== 'cuc' && node.version !== undefined && !toolkits.has(node.version)) {
        await stack.ok('admin', `${product}_download_axl_toolkit`, { host: node.name });
        toolkits.add(node.version);
      }
      const started = performance.now();
      const run = await runChecklist(checklist, node.name, call);
      const wallMs = performance.now() - started;
      return {
        weaknesses: [...weaknesses],
        seeded: checksOf(product, weaknesses),
        found: run.findings.map((f) => f.check).sort(),
        unjudged: run.unjudged,
        run,
        wallMs,
      };
    },
    async stop() {
      await lab.stop();
      await stack.stop();
      state.cleanup();
    },
  };
}

/** A small seeded PRNG (mulberry32): the same seed gives the same combinations on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` random subsets of the product's weakness ids (each id in with probability one half, never
 * empty), from `seed`: reproducible, and covering the ids added to lab/weaknesses/ later unchanged.
 */
export function randomCombinations(product: WeaknessProduct, count: number, seed: number): string[][] {
  const next = prng(seed);
  const ids = weaknessesOf(product).map((w) => w.id);
  const out: string[][] = [];
  while (out.length < count && ids.length > 0) {
    const pick = ids.filter(() => next() < 0.5);
    if (pick.length > 0) out.push(pick);
  }
  return out;
}

/** The seed of the combination tests' random sets: fixed, so a failure reproduces; AUDIT_COMBINATION_SEED overrides. */
export const COMBINATION_SEED = Number(process.env.AUDIT_COMBINATION_SEED ?? 20261126);
