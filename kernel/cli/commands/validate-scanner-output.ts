// validate_scanner_output (test utility of the spec): checks a security scanner's JSON report against
// the false-positive allowlist. CI pipes `npm audit --json` into it (npm run audit:check): the build
// fails on any finding at or above the threshold that no unexpired allowlist entry accepts.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../paths.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { rejectPositionals } from '../dispatch.ts';
import { readStdin } from '../io.ts';
import {
  AllowlistError,
  describeEntry,
  evaluate,
  parseAllowlist,
  type Allowlist,
  type Verdict,
} from '../scanner/allowlist.ts';
import {
  parseScannerOutput,
  parseSeverity,
  ScannerInputError,
  SEVERITIES,
  type Finding,
  type ScannerReport,
} from '../scanner/findings.ts';

export const DEFAULT_ALLOWLIST = join(PROJECT_ROOT, 'security', 'scanner-allowlist.json');

function findingLine(f: Finding): string {
  const id = f.ids[0] ?? '(no id)';
  return `${f.package} ${f.severity} ${id}${f.title ? ` "${f.title}"` : ''}${f.url && f.url !== id ? ` ${f.url}` : ''}`;
}

function printVerdict(io: CliIo, format: string, total: number, v: Verdict): void {
  const checked = v.allowed.length + v.failing.length;
  io.out(`${format}: ${total} findings, ${checked} at or above ${v.threshold}\n`);
  for (const { finding, entry } of v.allowed)
    io.out(`  allowed      ${findingLine(finding)} (until ${entry.expires}: ${entry.reason})\n`);
  for (const { finding, expiredEntry } of v.failing) {
    const why = expiredEntry ? `allowlist entry expired on ${expiredEntry.expires}` : 'not in the allowlist';
    io.out(`  NOT ALLOWED  ${findingLine(finding)}: ${why}\n`);
  }
  if (v.expired.length > 0) {
    io.out('expired allowlist entries (review again, then renew or remove):\n');
    for (const e of v.expired) io.out(`  ${describeEntry(e)} expired ${e.expires}: ${e.reason}\n`);
  }
  if (v.unused.length > 0) {
    io.out('allowlist entries no finding matches (remove once the fix has shipped):\n');
    for (const e of v.unused) io.out(`  ${describeEntry(e)}: ${e.reason}\n`);
  }
  io.out(
    v.failing.length === 0
      ? `result: ok, every finding at or above ${v.threshold} is allowlisted\n`
      : `result: ${v.failing.length} finding(s) at or above ${v.threshold} not allowlisted\n`,
  );
}

export const command: CliCommand = {
  name: 'validate_scanner_output',
  summary: "check a security scanner's JSON output against the false-positive allowlist",
  help: `Reads the scanner's JSON from --input or stdin: npm audit --json (report version 2 of npm 7+, or
version 1 of npm 6), or a generic { "findings": [{ "id", "package", "severity", "title"?, "url"? }] }.
Every finding at or above --severity must be accepted by an unexpired allowlist entry.

Allowlist (default security/scanner-allowlist.json):
  { "version": 1, "entries": [
    { "id": "GHSA-xxxx-xxxx-xxxx", "reason": "why it does not apply", "expires": "2026-12-31" },
    { "package": "some-dev-tool", "severity": "moderate", "reason": "...", "expires": "2026-06-30" } ] }
An id matches any id of the advisory (GHSA, CVE, npm advisory number, URL); "package" narrows it, and
"severity" is the highest severity accepted. An entry is honoured through its "expires" day (UTC);
expired entries are listed and no longer accept anything.

When the scanner could not produce a report (npm audit offline: an "error" object instead), nothing
was checked: exit 1, or exit 0 with a warning when --allow-scanner-error is given.

Examples:
  npm audit --json --omit=dev | node --import tsx scripts/validate_scanner_output.ts
  npm run audit:check
  node --import tsx scripts/validate_scanner_output.ts --input audit.json --severity high --json

Exit codes:
  0  every finding at or above the threshold is allowlisted
  1  a finding is not allowlisted (or only by an expired entry); the input or the allowlist is
     unreadable or malformed; the scanner produced no report (unless --allow-scanner-error)
  2  usage error`,
  options: [
    { name: 'input', short: 'i', type: 'string', description: 'scanner JSON file (default: stdin)' },
    {
      name: 'allowlist',
      short: 'a',
      type: 'string',
      description: 'allowlist file (default: security/scanner-allowlist.json)',
    },
    {
      name: 'severity',
      short: 's',
      type: 'string',
      description: `lowest severity checked: ${SEVERITIES.join(' | ')} (default: low)`,
    },
    {
      name: 'allow-scanner-error',
      type: 'boolean',
      description: 'exit 0 (with a warning) when the scanner produced no report, e.g. offline',
    },
    { name: 'json', type: 'boolean', description: 'print the verdict as JSON' },
  ],

  async run({ values, positionals }, io) {
    const stray = rejectPositionals(this.name, positionals, io);
    if (stray !== undefined) return stray;
    const threshold = parseSeverity((values.severity as string | undefined) ?? 'low');
    if (threshold === undefined) {
      io.err(`${this.name}: --severity must be one of ${SEVERITIES.join(', ')}\n`);
      return EXIT.USAGE;
    }
    const input = values.input as string | undefined;
    const allowlistFile = resolve(io.cwd, (values.allowlist as string | undefined) ?? DEFAULT_ALLOWLIST);

    let allowlist: Allowlist;
    let report: ScannerReport;
    try {
      allowlist = parseAllowlist(readFileSync(allowlistFile, 'utf8'));
      const text =
        input === undefined || input === '-'
          ? await readStdin(io)
          : readFileSync(resolve(io.cwd, input), 'utf8');
      report = parseScannerOutput(text);
    } catch (err) {
      const known = err instanceof AllowlistError || err instanceof ScannerInputError;
      const where = err instanceof AllowlistError ? ` (${allowlistFile})` : '';
      io.err(`${this.name}: ${known ? '' : 'cannot read: '}${(err as Error).message}${where}\n`);
      return EXIT.FAILED;
    }

    if (report.kind === 'error') {
      const tolerated = values['allow-scanner-error'] === true;
      io.err(
        `${this.name}: ${tolerated ? 'warning: ' : ''}the scanner produced no report, nothing was checked: ` +
          `${report.message}\n`,
      );
      return tolerated ? EXIT.OK : EXIT.FAILED;
    }
    const verdict = evaluate(report.findings, allowlist, threshold, Date.now());
    if (values.json === true)
      io.out(
        `${JSON.stringify({ format: report.format, total: report.findings.length, ...verdict }, null, 2)}\n`,
      );
    else printVerdict(io, report.format, report.findings.length, verdict);
    return verdict.failing.length === 0 ? EXIT.OK : EXIT.FAILED;
  },
};
