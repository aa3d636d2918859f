// A security audit as data: each check names the evidence to gather (ordinary tool calls, exactly as an
// agent makes them), the condition for a finding in words and as code, its severity and the remediation.
// The prompt text, the security-guide chapters, the scripted test runs and the benchmark all read the
// same data, so what the agent is told and what the tests prove cannot drift apart.
import type { Product } from '../../../kernel/sdk/index.ts';

export type Severity = 'critical' | 'high' | 'medium' | 'low';
export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** One tool call that gathers evidence. `{host}` in any string argument stands for the audited node. */
export interface EvidenceCall {
  /** Names the result for `evaluate` (unique within the check). */
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the call shows, for the prompt. */
  purpose: string;
}

/** What one evidence call returned: the tool's structured result, or its error. */
export type EvidenceResult =
  { ok: true; data: Record<string, unknown> } | { ok: false; error: string; message: string };

export interface Finding {
  check: string;
  severity: Severity;
  title: string;
  /** What was observed (values from the evidence, never a secret). */
  detail: string;
}

/**
 * A public source for a check: the vendor text that describes the control, or the reference that
 * confirms a name the evidence uses (table, column, parameter, CLI command and output line, AXL
 * operation, CUPI resource). An auditor follows it from a finding to the vendor's own words.
 */
export interface Reference {
  /** The document's title, e.g. "Security Guide for Cisco Unified Communications Manager". */
  document: string;
  /** The release the document covers, e.g. "15" or "15SU2". */
  release: string;
  /** Chapter or section title, as the document words it. */
  section: string;
  url: string;
  /**
   * The evidence names this source confirms (`numplan.dnorpattern`, `show tls min-version`,
   * `/vmrest/users`); absent or empty when it describes the control itself.
   */
  confirms?: string[];
}

export interface Check {
  /** Stable id, e.g. `CUCM-TLS-01`. */
  id: string;
  /** The topic (chapter of the security guide) it belongs to. */
  topic: string;
  title: string;
  /** Why it matters, in one or two sentences. */
  rationale: string;
  evidence: EvidenceCall[];
  /** The condition for a finding, in words (the prompt tells the agent this). */
  condition: string;
  /**
   * The same condition as code: the observation when it is a finding, undefined when it passes, and
   * `cannotJudge(reason)` when the evidence cannot be read (the check is then not assessed).
   */
  evaluate(results: Record<string, EvidenceResult>): string | undefined;
  severity: Severity;
  remediation: string;
  /** The vendor text describing the control, then the sources that confirm each evidence name. */
  references: Reference[];
  /** Public benchmark ids covering the control (e.g. a DISA STIG rule), where one exists. */
  benchmarks?: string[];
  /**
   * Set when a name the evidence uses has no public source: which name, and why it is still used. The
   * prompt, the guide and the report mark such a check "unverified" so a finding is read with care.
   */
  unverified?: string;
}

export interface Topic {
  id: string;
  title: string;
  /** The project's own summary of the control area (the security-guide chapter's introduction). */
  summary: string;
}

export interface Checklist {
  product: Product;
  /** The prompt's name, e.g. `cucm_security_audit`. */
  prompt: string;
  title: string;
  /** The vendor guide release the checks follow (by topic, in the project's own words). */
  guide: string;
  topics: Topic[];
  checks: Check[];
}

/**
 * The observation of a check whose evidence arrived but cannot be judged (an answer in no known form, a
 * row the node does not have): the check is NOT ASSESSED, with this reason, never a pass and never a
 * finding. A real node that words an answer differently, or keeps a setting elsewhere, is then reported
 * as what it is instead of as a weakness.
 */
export const CANNOT_JUDGE = 'cannot judge';

export function cannotJudge(reason: string): string {
  return reason.startsWith(CANNOT_JUDGE) ? reason : `${CANNOT_JUDGE}: ${reason}`;
}

export function isCannotJudge(observation: string): boolean {
  return observation.startsWith(CANNOT_JUDGE);
}

/** A string of rows' values from an evidence result, for evaluate functions. */
export function rowsOf(r: EvidenceResult | undefined): Record<string, unknown>[] {
  if (!r?.ok) return [];
  const rows = r.data.rows;
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}

/** The CLI output of an os_run_command result ('' when it failed). */
export function outputOf(r: EvidenceResult | undefined): string {
  return r?.ok && typeof r.data.output === 'string' ? r.data.output : '';
}

/** Lines of CLI output, for quoting in an observation (never more than a short excerpt). */
export function excerpt(out: string, max = 120): string {
  const one = out.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}...` : one || '(no output)';
}

/** Replaces `{host}` in every string of the arguments. */
export function bindHost(args: Record<string, unknown>, host: string): Record<string, unknown> {
  return bindVars(args, { host });
}

/** Replaces each `{name}` of `vars` in every string of the arguments. */
export function bindVars(
  args: Record<string, unknown>,
  vars: Record<string, string>,
): Record<string, unknown> {
  const fill = (t: string): string =>
    Object.entries(vars).reduce((out, [name, value]) => out.replaceAll(`{${name}}`, value), t);
  const bind = (v: unknown): unknown =>
    typeof v === 'string'
      ? fill(v)
      : Array.isArray(v)
        ? v.map(bind)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bind(x)]))
          : v;
  return bind(args) as Record<string, unknown>;
}
