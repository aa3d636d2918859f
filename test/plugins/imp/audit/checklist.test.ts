// The IM&P security-audit checklist against everything it names: the shipped tools, the auditor's
// allowlists and rate limits, the lab's AXL operations, SQL subset and CLI, the CLI guide, and the
// prompt and resources as MCP clients of each profile see them.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { allowlisted, toolPermitted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema, type Profile } from '../../../../kernel/rbac/profile-schema.ts';
import type { AllowlistService, Service } from '../../../../kernel/sdk/types.ts';
import { impOperations } from '../../../../lab/imp/operations.ts';
import { IMP_VERSION, seedImp } from '../../../../lab/imp/seed.ts';
import { runQuery } from '../../../../lab/informix/sql-executor.ts';
import { matchCommand } from '../../../../lab/vos/commands/table.ts';
import { resolveWeaknesses, seededWeaknesses } from '../../../../lab/weaknesses/index.ts';
import type { Check, EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { budget } from '../../../../plugins/_shared/audit/render-prompt.ts';
import { passwordAgeDays as expiryDays } from '../../../../plugins/_shared/audit/vos-verdicts.ts';
import { validateCommand } from '../../../../plugins/_shared/vos/command-policy.ts';
import { IMP_CHECKLIST, certNotAfter, serviceStates } from '../../../../plugins/imp/audit/checklist.ts';
import { loadShippedPlugins } from '../../../helpers/shipped-plugins.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';

const CLI_GUIDE = join(PROJECT_ROOT, 'plugins', 'imp', 'audit', 'cli-guide');
const PROFILES = ['admin', 'operator', 'auditor'] as const;

const profile = (name: string): Profile =>
  profileSchema.parse(
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles', '_default', `${name}.json`), 'utf8')),
  );

const evidence = IMP_CHECKLIST.checks.flatMap((c) => c.evidence.map((e) => ({ check: c.id, ...e })));
const axlOps = evidence.filter((e) => e.tool === 'imp_axl_call');
const cliCommands = evidence
  .filter((e) => e.tool === 'imp_os_run_command')
  .map((e) => String(e.args.command));

/** One `## ` section of the CLI guide: its example command and the profiles it claims may run it. */
interface GuideSection {
  file: string;
  heading: string;
  example: string;
  profiles: string[];
}

function guideSections(): GuideSection[] {
  const out: GuideSection[] = [];
  for (const file of readdirSync(CLI_GUIDE).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(CLI_GUIDE, file), 'utf8');
    for (const part of text.split(/^## /m).slice(1)) {
      const heading = part.split('\n')[0] ?? '';
      if (!heading.startsWith('`')) continue;
      const example = /^Example: `([^`]+)`/m.exec(part)?.[1];
      const claim = /^Default profiles: ([^(.\n]*)/m.exec(part)?.[1];
      assert.ok(example, `${file} ${heading}: no Example line`);
      assert.ok(claim !== undefined, `${file} ${heading}: no Default profiles line`);
      out.push({
        file,
        heading,
        example,
        profiles: PROFILES.filter((p) => new RegExp(`\\b${p}\\b`).test(claim)),
      });
    }
  }
  return out;
}

const ok = (data: Record<string, unknown>): EvidenceResult => ({ ok: true, data });

const check = (id: string): Check => {
  const c = IMP_CHECKLIST.checks.find((x) => x.id === id);
  assert.ok(c, id);
  return c;
};

describe('imp_security_audit checklist', () => {
  const auditor = profile('auditor');

  it('is well formed: unique ids per topic, every topic used, the IM&P topics present', () => {
    const ids = IMP_CHECKLIST.checks.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'check ids are unique');
    for (const id of ids) assert.match(id, /^IMP-[A-Z]+-\d{2}$/);
    const topics = IMP_CHECKLIST.topics.map((t) => t.id);
    for (const c of IMP_CHECKLIST.checks) {
      assert.ok(topics.includes(c.topic), `${c.id}: unknown topic ${c.topic}`);
      const evidenceIds = c.evidence.map((e) => e.id);
      assert.equal(new Set(evidenceIds).size, evidenceIds.length, `${c.id}: evidence ids are unique`);
      assert.ok(c.evidence.length > 0 && c.condition && c.remediation && c.rationale, c.id);
    }
    for (const t of topics)
      assert.ok(
        IMP_CHECKLIST.checks.some((c) => c.topic === t),
        `topic ${t} has checks`,
      );
    assert.deepEqual(topics, [
      'platform',
      'tls',
      'fips',
      'certificates',
      'passwords',
      'accounts',
      'services',
      'audit-logging',
      'backups',
      'xmpp-federation',
      'ha',
    ]);
  });

  it('names only shipped tools the auditor may call, with arguments their schemas accept and allowlists permit', async () => {
    const registry = await loadShippedPlugins();
    for (const e of evidence) {
      const tool = registry.tools.get(e.tool);
      assert.ok(tool, `${e.check}: no shipped tool ${e.tool}`);
      assert.ok(toolPermitted(auditor, e.tool), `${e.check}: auditor may not call ${e.tool}`);
      // Validated and reduced to its allowlist subject exactly as the kernel does before a call.
      const input = tool.schema.parse({ ...e.args, host: 'imp-pub' }) as Record<string, unknown>;
      const access = tool.def.access;
      if ('allowlist' in access) {
        const subject = access.subject(input);
        assert.ok(
          allowlisted(auditor, access.allowlist as AllowlistService, subject),
          `${e.check}: auditor ${access.allowlist} allowlist refuses ${subject}`,
        );
      }
    }
  });

  it('uses AXL operations the lab IM&P node implements, read-only, and SQL the lab answers', () => {
    const implemented = new Map(impOperations(IMP_VERSION).map((o) => [o.name, o]));
    const db = seedImp({ profile: 'weak', weaknesses: resolveWeaknesses('weak') });
    assert.ok(axlOps.length > 0);
    for (const e of axlOps) {
      const op = String(e.args.operation);
      assert.ok(allowlisted(auditor, 'axl', op), `${e.check}: auditor AXL allowlist refuses ${op}`);
      assert.equal(implemented.get(op)?.write, false, `${e.check}: lab IM&P has no read operation ${op}`);
      const args = e.args.args as Record<string, unknown>;
      if (op === 'executeSQLQuery') {
        const result = runQuery(db, String(args.sql));
        assert.ok(result.rows.length > 0, `${e.check}: ${String(args.sql)} returns rows in the weak lab`);
      }
    }
  });

  it('uses CLI commands the auditor SSH allowlist permits, the lab knows, and the CLI guide documents', () => {
    // A command is documented when a guide section's example is the same lab command.
    const documented = new Set(guideSections().map((x) => matchCommand(x.example, 'imp')?.command));
    assert.ok(cliCommands.length > 0);
    for (const command of cliCommands) {
      const subject = validateCommand(command);
      assert.ok(allowlisted(auditor, 'ssh', subject), `auditor SSH allowlist refuses ${subject}`);
      const known = matchCommand(command, 'imp');
      assert.ok(known, `the lab IM&P CLI does not know ${command}`);
      assert.ok(documented.has(known.command), `the CLI guide has no section for ${command}`);
    }
  });

  it('CLI guide: each section is known to the lab and allowed for exactly the profiles it names', () => {
    const sections = guideSections();
    assert.ok(sections.length >= 15, `${sections.length} sections`);
    for (const s of sections) {
      assert.ok(matchCommand(s.example, 'imp'), `${s.file} ${s.heading}: the lab does not know ${s.example}`);
      const allowed = PROFILES.filter((p) => allowlisted(profile(p), 'ssh', validateCommand(s.example)));
      assert.deepEqual(s.profiles, allowed, `${s.file} ${s.heading}: ${s.example}`);
    }
  });

  it('fits the auditor rate limits with room to spare, and shares evidence calls', () => {
    const b = budget(IMP_CHECKLIST.checks, 'imp-pub');
    for (const [service, n] of Object.entries(b)) {
      const limit = auditor.rateLimits.imp?.[service as Service]?.limit ?? 0;
      assert.ok(n <= limit / 2, `${service}: ${n} calls against a limit of ${limit}`);
    }
    assert.ok((b.axl ?? 0) + (b.ssh ?? 0) < evidence.length, 'identical calls are counted once');
  });

  it('every seeded weakness names a check, and every check has a weakness that seeds it', () => {
    const ids = IMP_CHECKLIST.checks.map((c) => c.id);
    const weak = seededWeaknesses('weak', 'imp');
    for (const w of weak) assert.ok(ids.includes(w.check), `${w.id} names unknown check ${w.check}`);
    assert.deepEqual(
      ids.filter((id) => !weak.some((w) => w.check === id)),
      [],
    );
    assert.deepEqual(seededWeaknesses('hardened', 'imp'), []);
  });

  it('cites a public source for every check; the lab stand-in settings are marked unverified', () => {
    const standIns = /Xmpp\w+|AuditLog\w+/g;
    for (const c of IMP_CHECKLIST.checks.filter((x) => x.id !== 'IMP-BKP-01')) {
      assert.ok((c.references ?? []).length > 0, `${c.id} has references`);
      for (const ref of c.references ?? []) {
        // Cisco's text, a public repository's file pinned to a commit (a script that reads the real output),
        // or a copy of a Cisco document found only on a document-sharing site (the CUCM database dictionaries).
        assert.match(
          ref.url,
          /^https:\/\/((www|developer)\.cisco\.com\/|github\.com\/[\w.-]+\/[\w.-]+\/blob\/[0-9a-f]{40}\/|(\w+\.)?scribd\.com\/document\/)/,
          `${c.id}: ${ref.url}`,
        );
        assert.ok(ref.document && ref.release && ref.section, `${c.id}: ${ref.url}`);
      }
      // A check that reads the processconfig stand-ins names each one it reads in `unverified`.
      const read = new Set(c.condition.match(standIns) ?? []);
      for (const name of read) assert.ok(c.unverified?.includes(name), `${c.id}: ${name} unverified`);
    }
    // Names the public sources confirm are not marked unverified.
    for (const id of [
      'IMP-OS-02',
      'IMP-TLS-01',
      'IMP-PWD-01',
      'IMP-PWD-02',
      'IMP-PWD-03',
      'IMP-SVC-01',
      'IMP-HA-01',
    ])
      assert.equal(IMP_CHECKLIST.checks.find((c) => c.id === id)?.unverified, undefined, id);
  });

  it('evaluates the evidence it reads: parsers and the check no lab profile seeds', () => {
    const to = certNotAfter(
      '  Validity From: Sat Oct 18 07:34:45 UTC 2025\n           To:   Wed Dec 02 07:34:45 UTC 2026',
    );
    assert.equal(to?.toISOString(), '2026-12-02T07:34:45.000Z');
    assert.equal(serviceStates('A[STARTED]\nB[STOPPED] Service Not Activated').get('B'), 'STOPPED');
    assert.equal(expiryDays('Password expiry maximum age is disabled'), 0);
    assert.equal(expiryDays('Password expiry maximum age is set to 90 days'), 90);
    // Unreadable evidence is a finding, never a silent pass.
    const tls = check('IMP-TLS-01');
    assert.equal(
      tls.evaluate({ tls: ok({ output: 'something else' }) }),
      'cannot judge: minimum TLS version not readable',
    );
    // The output line Cisco's PCD guide shows for the command.
    assert.equal(
      tls.evaluate({ tls: ok({ output: 'Configured TLS minimum version: 1.0' }) }),
      'minimum TLS version 1.0',
    );
    assert.equal(tls.evaluate({ tls: ok({ output: 'Configured TLS minimum version: 1.2' }) }), undefined);
  });

  it('IMP-OS-02 reads `utils ntp status` as Cisco documents it for IM&P and CUCM', () => {
    const ntp = check('IMP-OS-02');
    // TAC document 200771 (IM&P): synchronised, with a restart note on the same line.
    const synced = [
      'ntpd (pid 28589) is running...',
      '',
      '  remote         refid      st  t when poll reach   delay   offset   jitter',
      '==============================================================================',
      ' 10.0.0.1     192.0.2.0   2  u  40   64    1     0.292    0.041   0.000 synchronised to NTP server (10.0.0.1) at stratum 3 time server re-starting',
      '   poll server every 64 s',
    ].join('\n');
    assert.equal(ntp.evaluate({ ntp: ok({ output: synced }) }), undefined);
    // TAC document 215537: the unsynchronised answer.
    const unsynced = [
      'ntpd (pid 28435) is running...',
      ' 203.0.113.0    .GOOG.           1 u   44   64    3   11.724   -0.021   0.064',
      '',
      'unsynchronised',
      '   polling server every 8 s',
    ].join('\n');
    assert.equal(
      ntp.evaluate({ ntp: ok({ output: unsynced }) }),
      'NTP is not synchronised: unsynchronised polling server every 8 s',
    );
    // Neither answer: not assessed (the runner reports it unjudged), never a pass.
    assert.match(ntp.evaluate({ ntp: ok({ output: '' }) }) ?? '', /^cannot judge/);
  });

  it('the credential-policy checks read listCredentialPolicy rows by their AXL names', () => {
    const strong = {
      name: 'Default Credential Policy',
      failedLogon: '3',
      resetFailedLogonAttempts: '30',
      lockoutDuration: '30',
      minCredLength: '12',
      trivialCredCheck: 'true',
      prevCredStoredNum: '12',
      credExpiresAfter: '90',
      inactiveDaysAllowed: '90',
    };
    const policy = (row: Record<string, unknown>): Record<string, EvidenceResult> => ({
      policy: ok({ rows: [row] }),
    });
    for (const id of ['IMP-PWD-01', 'IMP-PWD-02', 'IMP-PWD-03'])
      assert.equal(check(id).evaluate(policy(strong)), undefined, id);
    assert.equal(
      check('IMP-PWD-01').evaluate(policy({ ...strong, failedLogon: '0' })),
      'Default Credential Policy: no lockout threshold',
    );
    assert.equal(
      check('IMP-PWD-02').evaluate(policy({ ...strong, trivialCredCheck: 'false', minCredLength: '4' })),
      'Default Credential Policy: minimum length below 8, trivial passwords accepted',
    );
    assert.equal(
      check('IMP-PWD-03').evaluate(policy({ ...strong, credExpiresAfter: '0' })),
      'Default Credential Policy: credentials never expire',
    );
    // No policy at all (or an answer without rows) is a finding.
    assert.equal(check('IMP-PWD-01').evaluate({ policy: ok({ rows: [] }) }), 'no credential policy found');
  });

  it('the federation checks apply where the federation service runs; a stand-in name absent leaves them not assessed', () => {
    const services = (state: string): EvidenceResult =>
      ok({
        output: `Cisco XCP Router[STARTED]\nCisco XCP XMPP Federation Connection Manager[${state}]\nCisco XCP Directory Service[STOPPED] Service Not Activated`,
      });
    const settings = (rows: [string, string][]): EvidenceResult =>
      ok({ rows: rows.map(([paramname, paramvalue]) => ({ paramname, paramvalue })) });
    const weak = settings([
      ['XmppFederationTlsRequired', 'F'],
      ['XmppFederationRequireClientCerts', 'F'],
      ['XmppFederationPolicy', 'allow'],
      ['XmppFederationAllowedDomains', ''],
    ]);
    for (const id of ['IMP-FED-01', 'IMP-FED-02', 'IMP-FED-03']) {
      // Federation off: nothing to protect.
      assert.equal(check(id).evaluate({ services: services('STOPPED'), settings: weak }), undefined, id);
      assert.ok(check(id).evaluate({ services: services('STARTED'), settings: weak }), id);
      // The service list unreadable, or the settings absent on a real node: not assessed, never a pass.
      assert.equal(
        check(id).evaluate({ services: ok({ output: '' }), settings: weak }),
        'cannot judge: service list not readable',
        id,
      );
      assert.match(
        check(id).evaluate({ services: services('STARTED'), settings: settings([]) }) ?? '',
        /^cannot judge: Xmpp\w+ not set/,
        id,
      );
    }
    assert.equal(
      check('IMP-FED-03').evaluate({ services: services('STARTED'), settings: settings([]) }),
      'cannot judge: XmppFederationRequireClientCerts not set, so: federated servers are not required to present a certificate the node validates cannot be ruled out',
    );
    const hardened = settings([
      ['XmppFederationTlsRequired', 'T'],
      ['XmppFederationRequireClientCerts', 'T'],
      ['XmppFederationPolicy', 'deny'],
      ['XmppFederationAllowedDomains', 'partner.example.net'],
    ]);
    for (const id of ['IMP-FED-01', 'IMP-FED-02', 'IMP-FED-03'])
      assert.equal(check(id).evaluate({ services: services('STARTED'), settings: hardened }), undefined, id);
    // The `Name[STARTED]` format Cisco's guides show for `utils service list`.
    assert.equal(
      serviceStates('Cisco Audit Event Service[STARTED]').get('Cisco Audit Event Service'),
      'STARTED',
    );
  });

  it('the XMPP secure-mode checks fire on F, pass on T, and are not assessed without a row', () => {
    for (const [id, name] of [
      ['IMP-XMPP-01', 'XmppTlsRequired'],
      ['IMP-XMPP-02', 'XmppRouterToRouterTlsRequired'],
    ] as const) {
      const run = (rows: Record<string, unknown>[]): string | undefined =>
        check(id).evaluate({ settings: ok({ rows }) });
      assert.equal(run([{ paramname: name, paramvalue: 'T' }]), undefined, id);
      assert.ok(run([{ paramname: name, paramvalue: 'F' }]), id);
      assert.match(run([]) ?? '', new RegExp(`^cannot judge: ${name} not set`), id);
    }
  });
});

describe('imp_security_audit through MCP', () => {
  let s: ProductStack;
  const prompt = IMP_CHECKLIST.prompt;
  before(async () => {
    s = await startProductStack();
  });
  after(async () => {
    await s.stop();
  });

  it('admin and auditor get the prompt natively and through infra_get_prompt; the operator is refused both', async () => {
    const args = { host: 'imp-pub', report: 'imp-audit.md' };
    for (const role of ['admin', 'auditor'] as const) {
      const listed = (await s.mcp[role].client.listPrompts()).prompts.map((p) => p.name);
      assert.ok(listed.includes(prompt), role);
      const native = await s.mcp[role].client.getPrompt({ name: prompt, arguments: args });
      const text = native.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
      for (const c of IMP_CHECKLIST.checks) assert.ok(text.includes(c.id), `${role}: ${c.id} in the prompt`);
      assert.ok(text.includes('imp-audit.md'));
      const viaInfra = await s.ok(role, 'infra_get_prompt', { name: prompt, arguments: args });
      assert.deepEqual(viaInfra.messages, native.messages);
    }
    const listed = (await s.mcp.operator.client.listPrompts()).prompts.map((p) => p.name);
    assert.ok(!listed.includes(prompt), 'the operator does not see the audit prompt');
    await assert.rejects(
      s.mcp.operator.client.getPrompt({ name: prompt, arguments: args }),
      /no prompt named imp_security_audit/,
    );
    const refused = await s.fails('operator', 'infra_get_prompt', { name: prompt, arguments: args });
    assert.match(refused.message, /no prompt named imp_security_audit/);
  });

  it('completes the scope and report arguments', async () => {
    const complete = async (name: string, value: string): Promise<string[]> =>
      (
        await s.mcp.auditor.client.complete({
          ref: { type: 'ref/prompt', name: prompt },
          argument: { name, value },
        })
      ).completion.values;
    assert.deepEqual(await complete('scope', 'xm'), ['xmpp-federation']);
    assert.deepEqual(await complete('scope', ''), ['all', ...IMP_CHECKLIST.topics.map((t) => t.id)]);
    assert.deepEqual(await complete('report', 'imp'), ['imp_security_audit.md', 'imp-audit.md']);
  });

  it('lists the members of both resource templates and reads each the same natively and through infra_get_doc', async () => {
    const client = s.mcp.auditor.client;
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes('imp://security-guide/{chapter}'));
    assert.ok(templates.includes('imp://cli-guide/{topic}'));
    const uris = (await client.listResources()).resources
      .map((r) => r.uri)
      .filter((u) => u.startsWith('imp://'));
    const expected = [
      ...IMP_CHECKLIST.topics.map((t) => `imp://security-guide/${t.id}`),
      ...readdirSync(CLI_GUIDE)
        .filter((f) => f.endsWith('.md'))
        .map((f) => `imp://cli-guide/${f.slice(0, -3)}`),
    ];
    assert.deepEqual([...uris].sort(), [...expected].sort());
    for (const uri of uris) {
      const native = (await client.readResource({ uri })).contents[0];
      const text = native && 'text' in native ? native.text : '';
      assert.ok(text.startsWith('# '), uri);
      const viaInfra = await s.ok('auditor', 'infra_get_doc', { name: uri });
      assert.equal(viaInfra.text, text, uri);
    }
    const chapter = (await client.readResource({ uri: 'imp://security-guide/xmpp-federation' })).contents[0];
    const chapterText = chapter && 'text' in chapter ? chapter.text : '';
    for (const c of IMP_CHECKLIST.checks.filter((x) => x.topic === 'xmpp-federation'))
      assert.ok(chapterText.includes(c.id), c.id);
  });

  it('answers unknown chapter and topic names with a clear error that lists the members', async () => {
    const client = s.mcp.auditor.client;
    await assert.rejects(
      client.readResource({ uri: 'imp://security-guide/nope' }),
      (err: Error) =>
        /no chapter nope/.test(err.message) && IMP_CHECKLIST.topics.every((t) => err.message.includes(t.id)),
    );
    await assert.rejects(client.readResource({ uri: 'imp://cli-guide/nope' }), (err: Error) =>
      /no document nope; available: .*security/.test(err.message),
    );
    const viaInfra = await s.fails('auditor', 'infra_get_doc', { name: 'imp://cli-guide/nope' });
    assert.match(viaInfra.message, /no document nope/);
  });
});
