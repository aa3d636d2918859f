// A cluster health check as data, in the manner of the security audits' checklists: each item names
// its evidence (ordinary read-only tool calls), its thresholds in words and as code, and the public
// sources of the names it reads. The prompt, the runner, the report and the tests read the same data.
import type { Product } from '../../../kernel/sdk/index.ts';
import type { EvidenceCall, EvidenceResult, Reference } from '../audit/checklist.ts';

export type Verdict = 'OK' | 'WARNING' | 'CRITICAL' | 'NOT ASSESSED';
export const VERDICTS: readonly Verdict[] = ['CRITICAL', 'WARNING', 'NOT ASSESSED', 'OK'];

/** One judged line of an item: a node (or the cluster), its verdict and what was observed. */
export interface Judgement {
  subject: string;
  verdict: Verdict;
  observed: string;
}

export interface HealthItem {
  /** Stable id, e.g. `CUCM-HEALTH-CPU`. */
  id: string;
  title: string;
  /** What the item tells an administrator, in one sentence. */
  purpose: string;
  evidence: EvidenceCall[];
  /** The thresholds in words, as the prompt gives them: OK, WARNING, CRITICAL, NOT ASSESSED. */
  thresholds: string;
  /**
   * The same thresholds as code: one judgement per node (or one for the cluster). A node the evidence
   * does not cover, or a value that cannot be read, is NOT ASSESSED; an empty answer is never OK.
   */
  judge(results: Record<string, EvidenceResult>): Judgement[];
  /** Where the names the evidence reads (counters, operations, commands) are described. */
  references: Reference[];
}

export interface HealthCheck {
  product: Product;
  /** The prompt's name, e.g. `cucm_health_check`. */
  prompt: string;
  title: string;
  items: HealthItem[];
}
