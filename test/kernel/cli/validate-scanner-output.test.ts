import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { command, DEFAULT_ALLOWLIST } from '../../../kernel/cli/commands/validate-scanner-output.ts';
import { parseAllowlist } from '../../../kernel/cli/scanner/allowlist.ts';
import { parseScannerOutput } from '../../../kernel/cli/scanner/findings.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { fakeIo } from './fake-io.ts';

const DAY = 86_400_000;
const date = (offsetDays: number): string =>
  new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

const GHSA_PROTO = 'GHSA-xvch-5gv4-984h';
const GHSA_REDOS = 'GHSA-c2qf-rxjj-qqgw';
const GHSA_LOW = 'GHSA-vh95-rmgr-6w4m';

/** The shape `npm audit --json` prints (npm 7+, auditReportVersion 2). */
const NPM_AUDIT_V2 = {
  auditReportVersion: 2,
  vulnerabilities: {
    minimist: {
      name: 'minimist',
      severity: 'critical',
      isDirect: false,
      via: [
        {
          source: 1096425,
          name: 'minimist',
          dependency: 'minimist',
          title: 'Prototype Pollution in minimist',
          url: `https://github.com/advisories/${GHSA_PROTO}`,
          severity: 'critical',
          cwe: ['CWE-1321'],
          cvss: { score: 9.8, vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' },
          range: '<0.2.4',
        },
      ],
      effects: ['mkdirp'],
      range: '<0.2.4',
      nodes: ['node_modules/minimist'],
      fixAvailable: true,
    },
    mkdirp: {
      name: 'mkdirp',
      severity: 'critical',
      isDirect: true,
      via: ['minimist'],
      effects: [],
      range: '0.4.1 - 0.5.1',
      nodes: ['node_modules/mkdirp'],
      fixAvailable: true,
    },
    semver: {
      name: 'semver',
      severity: 'moderate',
      isDirect: true,
      via: [
        {
          source: 1101088,
          name: 'semver',
          dependency: 'semver',
          title: 'semver vulnerable to Regular Expression Denial of Service',
          url: `https://github.com/advisories/${GHSA_REDOS}`,
          severity: 'moderate',
          range: '>=7.0.0 <7.5.2',
        },
      ],
      effects: [],
      range: '7.0.0 - 7.5.1',
      nodes: ['node_modules/semver'],
      fixAvailable: true,
    },
    debug: {
      name: 'debug',
      severity: 'low',
      isDirect: false,
      via: [
        {
          source: 1094218,
          name: 'debug',
          dependency: 'debug',
          title: 'Regular Expression Denial of Service in debug',
          url: `https://github.com/advisories/${GHSA_LOW}`,
          severity: 'low',
          range: '<2.6.9',
        },
      ],
      effects: [],
      range: '<2.6.9',
      nodes: ['node_modules/debug'],
      fixAvailable: true,
    },
  },
  metadata: {
    vulnerabilities: { info: 0, low: 1, moderate: 1, high: 0, critical: 2, total: 4 },
    dependencies: { prod: 120, dev: 0, optional: 0, peer: 0, peerOptional: 0, total: 120 },
  },
};

describe('validate_scanner_output', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ucmcp-scanner-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let n = 0;
  const allowlist = (entries: unknown[]): string => {
    const file = join(dir, `allow-${n++}.json`);
    writeFileSync(file, JSON.stringify({ version: 1, entries }));
    return file;
  };
  const run = async (
    args: Record<string, string | boolean>,
    stdin = JSON.stringify(NPM_AUDIT_V2),
  ): Promise<{ code: number; out: string; err: string }> => {
    const io = fakeIo({ stdin, cwd: dir });
    const code = await command.run({ values: args, positionals: [] }, io);
    return { code, out: io.stdout, err: io.stderr };
  };

  it('reads npm audit v2: one finding per advisory, transitive entries not counted twice, every id kept', () => {
    const report = parseScannerOutput(JSON.stringify(NPM_AUDIT_V2));
    assert.equal(report.kind, 'report');
    if (report.kind !== 'report') return;
    assert.equal(report.format, 'npm audit (v2)');
    assert.deepEqual(report.findings.map((f) => `${f.package}:${f.severity}`).sort(), [
      'debug:low',
      'minimist:critical',
      'semver:moderate',
    ]);
    const minimist = report.findings.find((f) => f.package === 'minimist');
    assert.deepEqual(minimist?.ids, [GHSA_PROTO, `https://github.com/advisories/${GHSA_PROTO}`, '1096425']);
  });

  it('exit 0 when every finding at or above the threshold is allowlisted, by GHSA id, npm number or package', async () => {
    const list = allowlist([
      { id: GHSA_PROTO.toLowerCase(), reason: 'minimist only parses our own argv', expires: date(30) },
      { id: '1101088', reason: 'semver ranges come from package.json only', expires: date(30) },
      { package: 'debug', severity: 'low', reason: 'debug output is off in production', expires: date(30) },
    ]);
    const r = await run({ allowlist: list });
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /npm audit \(v2\): 3 findings, 3 at or above low/);
    assert.match(r.out, /allowed +minimist critical GHSA-xvch-5gv4-984h "Prototype Pollution in minimist"/);
    assert.match(r.out, /result: ok/);
  });

  it('exit 1 listing what is not allowlisted; a package entry does not cover a worse severity', async () => {
    const list = allowlist([
      { package: 'semver', severity: 'low', reason: 'only low accepted', expires: date(30) },
      { id: GHSA_PROTO, package: 'other-package', reason: 'narrowed to another package', expires: date(30) },
    ]);
    const r = await run({ allowlist: list });
    assert.equal(r.code, 1);
    assert.match(r.out, /NOT ALLOWED +minimist critical GHSA-xvch-5gv4-984h .*: not in the allowlist/);
    assert.match(r.out, /NOT ALLOWED +semver moderate GHSA-c2qf-rxjj-qqgw .*: not in the allowlist/);
    assert.match(r.out, /NOT ALLOWED +debug low/);
    assert.match(r.out, /result: 3 finding\(s\) at or above low not allowlisted/);
    assert.match(r.out, /no finding matches/, 'entries that match nothing are reported');
  });

  it('an expired entry accepts nothing and is reported; an entry is honoured through its expiry day', async () => {
    const list = allowlist([
      { id: GHSA_PROTO, reason: 'accepted last year', expires: date(-2) },
      { id: GHSA_REDOS, reason: 'until today', expires: date(0) },
      { package: 'debug', severity: 'low', reason: 'old entry', expires: '2020-01-01' },
    ]);
    const r = await run({ allowlist: list, severity: 'moderate' });
    assert.equal(r.code, 1);
    assert.match(r.out, new RegExp(`NOT ALLOWED +minimist .*: allowlist entry expired on ${date(-2)}`));
    assert.match(r.out, /allowed +semver moderate/);
    assert.match(r.out, /expired allowlist entries/);
    assert.match(r.out, new RegExp(`${GHSA_PROTO} expired ${date(-2)}: accepted last year`));
    assert.match(r.out, /debug up to low expired 2020-01-01: old entry/);
  });

  it('the severity threshold: findings below it pass unchecked', async () => {
    const list = allowlist([]);
    const high = await run({ allowlist: list, severity: 'high' });
    assert.equal(high.code, 1, 'the critical finding still counts');
    assert.match(high.out, /3 findings, 1 at or above high/);
    const onlyLow = {
      auditReportVersion: 2,
      vulnerabilities: { debug: NPM_AUDIT_V2.vulnerabilities.debug },
    };
    const r = await run({ allowlist: list, severity: 'moderate' }, JSON.stringify(onlyLow));
    assert.equal(r.code, 0, r.out);
    assert.equal((await run({ allowlist: list, severity: 'medium' }, JSON.stringify(onlyLow))).code, 0);
    assert.equal((await run({ allowlist: list, severity: 'severe' })).code, 2);
  });

  it('malformed scanner output or allowlist: exit 1 with a clear message', async () => {
    const list = allowlist([]);
    const notJson = await run({ allowlist: list }, '{"auditReportVersion": 2, "vulner');
    assert.equal(notJson.code, 1);
    assert.match(notJson.err, /the scanner output is not JSON/);
    const wrongShape = await run(
      { allowlist: list },
      JSON.stringify({ auditReportVersion: 2, vulnerabilities: [] }),
    );
    assert.equal(wrongShape.code, 1);
    assert.match(wrongShape.err, /not a valid npm audit v2 report/);
    assert.equal((await run({ allowlist: list }, '[]')).code, 1);
    assert.match((await run({ allowlist: list }, '{"x":1}')).err, /unknown scanner output/);

    const noReason = await run({ allowlist: allowlist([{ id: 'GHSA-1', expires: date(1) }]) });
    assert.equal(noReason.code, 1);
    assert.match(noReason.err, /invalid allowlist: entries\.0\.reason/);
    const badDate = await run({ allowlist: allowlist([{ id: 'x', reason: 'r', expires: '2026-02-30' }]) });
    assert.match(badDate.err, /entries\.0\.expires: is not a calendar date/);
    const vague = await run({ allowlist: allowlist([{ package: 'debug', reason: 'r', expires: date(1) }]) });
    assert.match(vague.err, /an advisory id, or a package and a severity/);
    const missing = await run({ allowlist: join(dir, 'nope.json') });
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot read: ENOENT/);
  });

  it('npm audit that could not reach the registry: exit 1, or 0 with a warning with --allow-scanner-error', async () => {
    const offline = JSON.stringify({
      message: 'request to https://registry.npmjs.org/-/npm/v1/security/advisories/bulk failed',
      error: { summary: '', detail: '' },
    });
    const list = allowlist([]);
    const r = await run({ allowlist: list }, offline);
    assert.equal(r.code, 1);
    assert.match(r.err, /the scanner produced no report, nothing was checked: request to https/);
    const tolerated = await run({ allowlist: list, 'allow-scanner-error': true }, offline);
    assert.equal(tolerated.code, 0);
    assert.match(tolerated.err, /warning: the scanner produced no report/);
  });

  it('reads npm audit v1 and a generic findings list; --json prints the verdict; --input reads a file', async () => {
    const v1 = {
      advisories: {
        '1179': {
          id: 1179,
          module_name: 'minimist',
          severity: 'low',
          title: 'Prototype Pollution',
          url: 'https://npmjs.com/advisories/1179',
          github_advisory_id: 'GHSA-vh95-rmgr-6w4m',
          cves: ['cve-2020-7598'],
        },
      },
    };
    const list = allowlist([{ id: 'CVE-2020-7598', reason: 'argv only', expires: date(1) }]);
    const file = join(dir, 'v1.json');
    writeFileSync(file, JSON.stringify(v1));
    const r = await run({ allowlist: list, input: file, json: true }, '');
    assert.equal(r.code, 0, r.err);
    const verdict = JSON.parse(r.out) as { format: string; allowed: { finding: { ids: string[] } }[] };
    assert.equal(verdict.format, 'npm audit (v1)');
    assert.ok(verdict.allowed[0]?.finding.ids.includes('GHSA-vh95-rmgr-6w4m'));
    const generic = { findings: [{ id: 'CVE-2024-0001', package: 'openssl', severity: 'HIGH' }] };
    assert.equal((await run({ allowlist: list }, JSON.stringify(generic))).code, 1);
  });

  it('the committed allowlist is valid, and the script reads the scanner output from stdin', async () => {
    assert.equal(DEFAULT_ALLOWLIST, join(PROJECT_ROOT, 'security', 'scanner-allowlist.json'));
    parseAllowlist(readFileSync(DEFAULT_ALLOWLIST, 'utf8'));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'scripts', 'validate_scanner_output.ts'),
        '--allowlist',
        allowlist([]),
      ],
      { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdin.end(JSON.stringify({ auditReportVersion: 2, vulnerabilities: {} }));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, stdout);
    assert.match(stdout, /0 findings, 0 at or above low/);
  });
});
