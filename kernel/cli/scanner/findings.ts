// A security scanner's JSON report, reduced to findings: one advisory affecting one package, with every
// id it is known by (GHSA, CVE, the npm advisory number, the URL) so an allowlist entry can name any.
// Reads `npm audit --json` (report version 2, npm 7+; and version 1, npm 6) and a generic
// `{ "findings": [...] }` list that other scanners' output can be converted to.

import { z } from 'zod';

export const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

/** Scanners disagree on names: `medium` is npm's `moderate`, `none`/`negligible` are `info`. */
export function parseSeverity(v: unknown): Severity | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if ((SEVERITIES as readonly string[]).includes(s)) return s as Severity;
  if (s === 'medium') return 'moderate';
  if (s === 'none' || s === 'negligible' || s === 'unknown') return 'info';
  return undefined;
}

export interface Finding {
  package: string;
  severity: Severity;
  /** Every id of the advisory, upper-cased GHSA/CVE ids, the npm number, the URL. First = shown. */
  ids: string[];
  title: string;
  url?: string;
}

export type ScannerReport =
  | { kind: 'report'; format: string; findings: Finding[] }
  /** The scanner ran but produced no report (offline, registry refused): nothing was checked. */
  | { kind: 'error'; format: string; message: string };

export class ScannerInputError extends Error {}

const GHSA = /GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}/i;

function ids(...values: unknown[]): string[] {
  const out: string[] = [];
  for (const v of values.flat()) {
    if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v));
    if (typeof v !== 'string' || v.trim() === '') continue;
    const s = v.trim();
    // GitHub's own spelling: upper-case prefix, lower-case groups; found in advisory URLs too.
    const ghsa = GHSA.exec(s)?.[0];
    if (ghsa) out.push(`GHSA${ghsa.slice(4).toLowerCase()}`);
    if (ghsa !== s) out.push(/^cve-/i.test(s) ? s.toUpperCase() : s);
  }
  // GHSA first (what GitHub and npm show), then the rest in order, without repeats.
  const unique = [...new Map(out.map((i) => [i.toLowerCase(), i])).values()];
  return [...unique.filter((i) => i.startsWith('GHSA-')), ...unique.filter((i) => !i.startsWith('GHSA-'))];
}

const npmV2Via = z.looseObject({
  source: z.union([z.number(), z.string()]).optional(),
  name: z.string().optional(),
  title: z.string().optional(),
  url: z.string().optional(),
  severity: z.string().optional(),
});
const npmV2 = z.looseObject({
  auditReportVersion: z.literal(2),
  vulnerabilities: z.record(
    z.string(),
    z.looseObject({
      name: z.string().optional(),
      severity: z.string(),
      via: z.array(z.union([z.string(), npmV2Via])),
    }),
  ),
});
const npmV1 = z.looseObject({
  advisories: z.record(
    z.string(),
    z.looseObject({
      id: z.union([z.number(), z.string()]).optional(),
      module_name: z.string(),
      severity: z.string(),
      title: z.string().optional(),
      url: z.string().optional(),
      github_advisory_id: z.string().optional(),
      cves: z.array(z.string()).optional(),
    }),
  ),
});
const generic = z.looseObject({
  findings: z.array(
    z.looseObject({
      id: z.union([z.string(), z.array(z.string())]),
      package: z.string(),
      severity: z.string(),
      title: z.string().optional(),
      url: z.string().optional(),
    }),
  ),
});

function severityOf(v: unknown, where: string): Severity {
  const s = parseSeverity(v);
  if (!s) throw new ScannerInputError(`${where}: unknown severity ${JSON.stringify(v)}`);
  return s;
}

function fromNpmV2(report: z.infer<typeof npmV2>): Finding[] {
  const out = new Map<string, Finding>();
  for (const [key, vuln] of Object.entries(report.vulnerabilities)) {
    // A string in `via` names another vulnerable package this one depends on: that package's own
    // entry carries the advisory, so only advisory objects are findings (no double counting).
    for (const via of vuln.via) {
      if (typeof via === 'string') continue;
      const pkg = via.name ?? vuln.name ?? key;
      const f: Finding = {
        package: pkg,
        severity: severityOf(via.severity ?? vuln.severity, `vulnerabilities.${key}`),
        ids: ids(via.url, via.source),
        title: via.title ?? '',
        ...(via.url ? { url: via.url } : {}),
      };
      out.set(`${pkg}\0${f.ids[0] ?? f.title}`, f);
    }
  }
  return [...out.values()];
}

function fromNpmV1(report: z.infer<typeof npmV1>): Finding[] {
  return Object.entries(report.advisories).map(([key, a]) => ({
    package: a.module_name,
    severity: severityOf(a.severity, `advisories.${key}`),
    ids: ids(a.github_advisory_id, a.url, a.cves ?? [], a.id ?? key),
    title: a.title ?? '',
    ...(a.url ? { url: a.url } : {}),
  }));
}

function fromGeneric(report: z.infer<typeof generic>): Finding[] {
  return report.findings.map((f, i) => ({
    package: f.package,
    severity: severityOf(f.severity, `findings[${i}]`),
    ids: ids(f.id, f.url),
    title: f.title ?? '',
    ...(f.url ? { url: f.url } : {}),
  }));
}

/** Parses a scanner's JSON output; ScannerInputError when it is not JSON or not a known format. */
export function parseScannerOutput(text: string): ScannerReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ScannerInputError(`the scanner output is not JSON: ${(err as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new ScannerInputError('the scanner output is not a JSON object');
  const obj = data as Record<string, unknown>;
  if ('auditReportVersion' in obj || 'vulnerabilities' in obj) {
    const r = npmV2.safeParse(obj);
    if (!r.success) throw new ScannerInputError(`not a valid npm audit v2 report: ${firstIssue(r.error)}`);
    return { kind: 'report', format: 'npm audit (v2)', findings: fromNpmV2(r.data) };
  }
  if ('advisories' in obj) {
    const r = npmV1.safeParse(obj);
    if (!r.success) throw new ScannerInputError(`not a valid npm audit v1 report: ${firstIssue(r.error)}`);
    return { kind: 'report', format: 'npm audit (v1)', findings: fromNpmV1(r.data) };
  }
  if ('findings' in obj) {
    const r = generic.safeParse(obj);
    if (!r.success) throw new ScannerInputError(`not a valid findings list: ${firstIssue(r.error)}`);
    return { kind: 'report', format: 'findings list', findings: fromGeneric(r.data) };
  }
  // npm audit --json when the registry cannot be asked: { "message": ..., "error": { summary, detail } }.
  if ('error' in obj) {
    const e = obj.error as Record<string, unknown> | null;
    const message = [obj.message, e?.summary, e?.code, e?.detail].find(
      (m): m is string => typeof m === 'string' && m.trim() !== '',
    );
    return { kind: 'error', format: 'npm audit', message: message ?? 'the scanner reported an error' };
  }
  throw new ScannerInputError('unknown scanner output: expected npm audit --json or { "findings": [...] }');
}

function firstIssue(err: z.ZodError): string {
  const i = err.issues[0];
  return i ? `${i.path.join('.') || '(root)'}: ${i.message}` : 'invalid';
}
