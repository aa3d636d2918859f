// Reading the serviceability tools' answers for the health items: PerfMon values per node, thresholds
// where a higher value is worse. A node that answered with an error, or without the counter, is
// NOT ASSESSED with the reason; nothing is OK unless a value was read and is within its threshold.
import type { Product } from '../../../kernel/sdk/index.ts';
import type { EvidenceResult } from '../audit/checklist.ts';
import type { HealthItem, Judgement, Verdict } from './definition.ts';
import { rtmtCounters } from './references.ts';

interface PerfmonValue {
  counter: string;
  instance?: string;
  value: number;
}

interface PerfmonNode {
  node: string;
  values: PerfmonValue[];
  error?: { code: string; message: string };
}

/** The nodes of a `<product>_perfmon_query` answer ([] when it has none in the known form). */
export function perfmonNodes(r: EvidenceResult | undefined): PerfmonNode[] {
  if (!r?.ok || !Array.isArray(r.data.nodes)) return [];
  return (r.data.nodes as PerfmonNode[]).filter(
    (n) => typeof n?.node === 'string' && Array.isArray(n.values),
  );
}

/** OK below `warn`, WARNING from `warn`, CRITICAL from `critical`. */
export function higherIsWorse(value: number, warn: number, critical: number): Verdict {
  return value >= critical ? 'CRITICAL' : value >= warn ? 'WARNING' : 'OK';
}

/** `12.5` as `12.5`, `12` as `12`: counters print without trailing zeros. */
export function figure(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/**
 * A judge for one percentage counter per node: the highest of its instances (every CPU, every
 * partition) against the thresholds.
 */
export function percentJudge(
  evidenceId: string,
  counter: string,
  warn: number,
  critical: number,
): (results: Record<string, EvidenceResult>) => Judgement[] {
  return (results) =>
    perfmonNodes(results[evidenceId]).map((n): Judgement => {
      if (n.error)
        return { subject: n.node, verdict: 'NOT ASSESSED', observed: `${n.error.code}: ${n.error.message}` };
      const values = n.values.filter((v) => v.counter === counter && Number.isFinite(v.value));
      const top = values.reduce<PerfmonValue | undefined>(
        (a, v) => (!a || v.value > a.value ? v : a),
        undefined,
      );
      if (!top) return { subject: n.node, verdict: 'NOT ASSESSED', observed: `${counter} not reported` };
      const where =
        top.instance !== undefined && values.length > 1
          ? ` (instance ${top.instance}, the highest of ${values.length})`
          : '';
      return {
        subject: n.node,
        verdict: higherIsWorse(top.value, warn, critical),
        observed: `${counter} ${figure(top.value)}%${where}`,
      };
    });
}

/**
 * An item that reads one percentage counter of one PerfMon object on every node and judges the
 * highest instance of each: CPU, memory, disk.
 */
export function percentItem(
  product: Product,
  o: {
    id: string;
    title: string;
    purpose: string;
    object: string;
    counter: string;
    /** What is judged per node, e.g. "the busiest Processor instance". */
    judged: string;
    warn: number;
    critical: number;
  },
): HealthItem {
  const evidenceId = o.object.toLowerCase();
  return {
    id: o.id,
    title: o.title,
    purpose: o.purpose,
    evidence: [
      {
        id: evidenceId,
        tool: `${product}_perfmon_query`,
        args: { host: '{host}', object: o.object, counters: [o.counter], all_nodes: true },
        purpose: `${o.object} ${o.counter} on every node`,
      },
    ],
    thresholds: `per node, ${o.judged}: OK below ${o.warn} %, WARNING from ${o.warn} %, CRITICAL from ${o.critical} %.`,
    judge: percentJudge(evidenceId, o.counter, o.warn, o.critical),
    references: [rtmtCounters(o.object, [o.object, o.counter])],
  };
}
