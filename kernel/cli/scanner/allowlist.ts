// The false-positive allowlist of security scanner findings (security/scanner-allowlist.json): each
// entry names an advisory (any of its ids) or a package up to a severity, says why it is accepted, and
// expires, so that an accepted risk is looked at again rather than forgotten.

import { z } from 'zod';
import { SEVERITIES, severityRank, type Finding, type Severity } from './findings.ts';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d);
  }, 'is not a calendar date');

export const allowlistEntrySchema = z
  .strictObject({
    /** An advisory id: GHSA, CVE, the npm advisory number or its URL. */
    id: z.string().trim().min(1).optional(),
    /** The package the finding is in; with `id` it narrows the entry to that package. */
    package: z.string().trim().min(1).optional(),
    /** The highest severity the entry accepts (a package-wide entry needs one). */
    severity: z.enum(SEVERITIES).optional(),
    reason: z.string().trim().min(1, 'a reason is required'),
    /** Last day (UTC) the entry is honoured. */
    expires: isoDate,
  })
  .refine((e) => e.id !== undefined || (e.package !== undefined && e.severity !== undefined), {
    message: 'an entry needs an advisory id, or a package and a severity',
  });
export type AllowlistEntry = z.infer<typeof allowlistEntrySchema>;

export const allowlistSchema = z.strictObject({
  $schema: z.string().optional(),
  $comment: z.string().optional(),
  version: z.literal(1),
  entries: z.array(allowlistEntrySchema),
});
export type Allowlist = z.infer<typeof allowlistSchema>;

export class AllowlistError extends Error {}

export function parseAllowlist(text: string): Allowlist {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new AllowlistError(`the allowlist is not JSON: ${(err as Error).message}`);
  }
  const r = allowlistSchema.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new AllowlistError(
      `invalid allowlist: ${i?.path.join('.') || '(root)'}: ${i?.message ?? 'invalid'}`,
    );
  }
  return r.data;
}

export function isExpired(entry: AllowlistEntry, now: number): boolean {
  return now > Date.parse(`${entry.expires}T23:59:59.999Z`);
}

export function entryMatches(entry: AllowlistEntry, f: Finding): boolean {
  if (entry.id !== undefined) {
    const id = entry.id.toLowerCase();
    if (!f.ids.some((i) => i.toLowerCase() === id)) return false;
  }
  if (entry.package !== undefined && entry.package !== f.package) return false;
  if (entry.severity !== undefined && severityRank(f.severity) > severityRank(entry.severity)) return false;
  return true;
}

export function describeEntry(e: AllowlistEntry): string {
  return [e.id, e.package, e.severity ? `up to ${e.severity}` : undefined].filter(Boolean).join(' ');
}

export interface Verdict {
  threshold: Severity;
  /** Findings at or above the threshold accepted by an unexpired entry. */
  allowed: { finding: Finding; entry: AllowlistEntry }[];
  /** Findings at or above the threshold that no unexpired entry accepts. */
  failing: { finding: Finding; expiredEntry?: AllowlistEntry }[];
  /** Findings below the threshold (not checked). */
  below: Finding[];
  /** Entries past their date: renew them (with a fresh review) or remove them. */
  expired: AllowlistEntry[];
  /** Unexpired entries no finding matches: the advisory is fixed, the entry can go. */
  unused: AllowlistEntry[];
}

export function evaluate(findings: Finding[], list: Allowlist, threshold: Severity, now: number): Verdict {
  const live = list.entries.filter((e) => !isExpired(e, now));
  const expired = list.entries.filter((e) => isExpired(e, now));
  const v: Verdict = { threshold, allowed: [], failing: [], below: [], expired, unused: [] };
  for (const finding of findings) {
    if (severityRank(finding.severity) < severityRank(threshold)) {
      v.below.push(finding);
      continue;
    }
    const entry = live.find((e) => entryMatches(e, finding));
    if (entry) {
      v.allowed.push({ finding, entry });
      continue;
    }
    const expiredEntry = expired.find((e) => entryMatches(e, finding));
    v.failing.push({ finding, ...(expiredEntry ? { expiredEntry } : {}) });
  }
  v.unused = live.filter((e) => !findings.some((f) => entryMatches(e, f)));
  return v;
}
