// The Unity Connection security-audit checklist against everything it names: the shipped tools, the
// auditor's allowlists and rate limits, the lab's CUPI resources and CLI, the read-only CLI guide and
// the CUPI reference, and the prompt and resources as MCP clients of each profile see them.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { allowlisted, toolPermitted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema, type Profile } from '../../../../kernel/rbac/profile-schema.ts';
import type { AllowlistService, Service } from '../../../../kernel/sdk/types.ts';
import { matchCommand } from '../../../../lab/vos/commands/table.ts';
import { seededWeaknesses } from '../../../../lab/weaknesses/index.ts';
import { bindHost, type EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { budget } from '../../../../plugins/_shared/audit/render-prompt.ts';
import { validateCommand } from '../../../../plugins/_shared/vos/command-policy.ts';
import {
  CUC_CHECKLIST,
  PROBES,
  certNotAfter,
  dbAnswer,
  dbRows,
  patternMatches,
  tablesAllowing,
} from '../../../../plugins/cuc/audit/checklist.ts';
import { loadShippedPlugins } from '../../../helpers/shipped-plugins.ts';
import { startProductStack, type ProductStack } from '../../../helpers/product-stack.ts';
import { drfEvidence } from '../../../helpers/cli-tool-answers.ts';

const AUDIT_DIR = join(PROJECT_ROOT, 'plugins', 'cuc', 'audit');
const CLI_GUIDE = join(AUDIT_DIR, 'cli-guide-readonly');
const PROFILES = ['admin', 'operator', 'auditor'] as const;

const profile = (name: string): Profile =>
  profileSchema.parse(
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles', '_default', `${name}.json`), 'utf8')),
  );

const evidence = CUC_CHECKLIST.checks.flatMap((c) => c.evidence.map((e) => ({ check: c.id, ...e })));
const cliCommands = [
  ...new Set(evidence.filter((e) => e.tool === 'cuc_os_run_command').map((e) => String(e.args.command))),
];
/** Distinct evidence calls (tool and arguments), as the audit makes them. */
const distinctCalls = [
  ...new Map(
    evidence.map((e) => [JSON.stringify([e.tool, e.args]), { tool: e.tool, args: e.args }]),
  ).values(),
];

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
      assert.match(part, /^Risk: /m, `${file} ${heading}: no Risk line`);
      assert.match(part, /^Output: /m, `${file} ${heading}: no Output line`);
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
const check = (id: string) => {
  const c = CUC_CHECKLIST.checks.find((x) => x.id === id);
  assert.ok(c, id);
  return c;
};

describe('cuc_security_audit checklist', () => {
  const auditor = profile('auditor');

  it('is well formed: unique ids per topic, every topic used, the Unity Connection topics present', () => {
    const ids = CUC_CHECKLIST.checks.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'check ids are unique');
    for (const id of ids) assert.match(id, /^CUC-[A-Z]+-\d{2}$/);
    const topics = CUC_CHECKLIST.topics.map((t) => t.id);
    for (const c of CUC_CHECKLIST.checks) {
      assert.ok(topics.includes(c.topic), `${c.id}: unknown topic ${c.topic}`);
      const evidenceIds = c.evidence.map((e) => e.id);
      assert.equal(new Set(evidenceIds).size, evidenceIds.length, `${c.id}: evidence ids are unique`);
      assert.ok(c.evidence.length > 0 && c.condition && c.remediation && c.rationale, c.id);
    }
    for (const t of topics)
      assert.ok(
        CUC_CHECKLIST.checks.some((c) => c.topic === t),
        `topic ${t} has checks`,
      );
    assert.deepEqual(topics, [
      'platform',
      'tls',
      'fips',
      'certificates',
      'voicemail-pins',
      'accounts',
      'cupi',
      'services',
      'audit-logging',
      'backups',
      'restriction-tables',
    ]);
  });

  it('names only shipped tools the auditor may call, with arguments their schemas accept and allowlists permit', async () => {
    const registry = await loadShippedPlugins();
    for (const e of evidence) {
      const tool = registry.tools.get(e.tool);
      assert.ok(tool, `${e.check}: no shipped tool ${e.tool}`);
      assert.ok(toolPermitted(auditor, e.tool), `${e.check}: auditor may not call ${e.tool}`);
      // Validated and reduced to its allowlist subject exactly as the kernel does before a call.
      const input = tool.schema.parse(bindHost(e.args, 'cuc-pub')) as Record<string, unknown>;
      const access = tool.def.access;
      assert.ok('allowlist' in access, `${e.tool} is checked against an allowlist`);
      const subject = access.subject(input);
      assert.ok(
        allowlisted(auditor, access.allowlist as AllowlistService, subject),
        `${e.check}: auditor ${access.allowlist} allowlist refuses ${subject}`,
      );
      if (e.tool.startsWith('cuc_cupi_')) assert.match(subject, /^GET \/vmrest\//, 'read-only CUPI');
    }
  });

  it('uses CLI commands the auditor SSH allowlist permits, the lab knows, and the CLI guide documents', () => {
    const documented = new Set(guideSections().map((x) => matchCommand(x.example, 'cuc')?.command));
    assert.ok(cliCommands.length > 0);
    for (const command of cliCommands) {
      const subject = validateCommand(command);
      assert.ok(allowlisted(auditor, 'ssh', subject), `auditor SSH allowlist refuses ${subject}`);
      // `show cuc dbview contents` writes a CSV file and prints only its name (CLI Reference): evidence
      // that judges rows must come from a command that prints them.
      assert.doesNotMatch(command, /^show cuc dbview contents/, command);
      const known = matchCommand(command, 'cuc');
      assert.ok(known, `the lab CUC CLI does not know ${command}`);
      assert.ok(documented.has(known.command), `the CLI guide has no section for ${command}`);
    }
  });

  it('CLI guide: read-only commands only, each known to the lab and allowed for exactly the profiles it names', () => {
    const sections = guideSections();
    assert.ok(sections.length >= 15, `${sections.length} sections`);
    for (const s of sections) {
      assert.ok(matchCommand(s.example, 'cuc'), `${s.file} ${s.heading}: the lab does not know ${s.example}`);
      const allowed = PROFILES.filter((p) => allowlisted(profile(p), 'ssh', validateCommand(s.example)));
      assert.deepEqual(s.profiles, allowed, `${s.file} ${s.heading}: ${s.example}`);
      // "Read-only" guide: the auditor, who may only read, may run every example.
      assert.ok(allowed.includes('auditor'), `${s.example} is not a read-only command`);
    }
  });

  it('CUPI reference: documents every resource the audit lists, and the list shapes and paging', () => {
    const text = readFileSync(join(AUDIT_DIR, 'cupi-reference.md'), 'utf8');
    for (const e of evidence.filter((x) => x.tool === 'cuc_cupi_list'))
      assert.ok(
        new RegExp(`^\\| \`${String(e.args.resource)}\` +\\|`, 'm').test(text),
        `${String(e.args.resource)} in the table`,
      );
    for (const needle of ['rowsPerPage', 'pageNumber', '{"@total":"0"}', '201 Created', 'Location', '404'])
      assert.ok(text.includes(needle), needle);
  });

  it('fits the auditor rate limits with room to spare, and shares evidence calls', () => {
    const b = budget(CUC_CHECKLIST.checks, 'cuc-pub');
    for (const [service, n] of Object.entries(b)) {
      const limit = auditor.rateLimits.cuc?.[service as Service]?.limit ?? 0;
      assert.ok(n <= limit / 4, `${service}: ${n} calls against a limit of ${limit}`);
    }
    assert.deepEqual(b, { ssh: 11, cupi: 5, serviceability: 1 });
    assert.ok(distinctCalls.length < evidence.length, 'identical calls are counted once');
  });

  it('cites a public source for every check, or says which name has none', () => {
    for (const c of CUC_CHECKLIST.checks) {
      const refs = c.references ?? [];
      assert.ok(refs.length > 0 || (c.unverified ?? '').length > 40, `${c.id}: no reference and no reason`);
      for (const r of refs) {
        assert.match(
          r.url,
          // Cisco's text, or a public repository's file pinned to a commit (a script that reads the real output).
          /^https:\/\/(www\.cisco\.com\/c\/en\/us\/(td\/docs|support\/docs)\/|github\.com\/[\w.-]+\/[\w.-]+\/blob\/[0-9a-f]{40}\/)/,
          `${c.id}: ${r.url}`,
        );
        assert.ok(r.document && r.release && r.section, `${c.id}: ${r.url}`);
      }
    }
    // The names the evidence reads from CUPI are the ones the CUPI guide shows.
    const confirmed = new Set(
      CUC_CHECKLIST.checks.flatMap((c) => (c.references ?? []).flatMap((r) => r.confirms ?? [])),
    );
    for (const name of [
      'MinLength',
      'TrivialCredChecking',
      'MaxDays',
      'MaxHacks',
      'PrevCredCount',
      'MinDuration',
    ])
      assert.ok(confirmed.has(name), name);
    assert.ok(confirmed.has('System.API.CumiAccessSecureMessageAttachments'));
  });

  it('every seeded weakness names a check, and every check has a weakness', () => {
    const ids = CUC_CHECKLIST.checks.map((c) => c.id);
    const weak = seededWeaknesses('weak', 'cuc');
    for (const w of weak) {
      assert.ok(ids.includes(w.check), `${w.id} names unknown check ${w.check}`);
      assert.equal(w.product, 'cuc');
    }
    assert.equal(new Set(weak.map((w) => w.id)).size, weak.length, 'weakness ids are unique');
    assert.deepEqual(
      ids.filter((id) => !weak.some((w) => w.check === id)),
      [],
    );
    assert.deepEqual(seededWeaknesses('hardened', 'cuc'), []);
  });

  it('reads the evidence it is given: parsers, the dial-string logic, and unreadable answers', () => {
    const table = [
      'userobjectid  credentialtype  timechanged',
      '------------  --------------  -----------------------',
      'u-1           4               2025-10-18 07:39:58.265',
      'u-2           3               null',
    ].join('\n');
    assert.deepEqual(dbRows(table), [
      { userobjectid: 'u-1', credentialtype: '4', timechanged: '2025-10-18 07:39:58.265' },
      { userobjectid: 'u-2', credentialtype: '3', timechanged: 'null' },
    ]);
    assert.deepEqual(dbRows('No records found'), []);

    // A dbquery answer that is not a result naming the columns asked for (an SQL error for a view or
    // column the node lacks, or any other form) is not judged: never an empty, passing answer.
    assert.deepEqual(dbAnswer(ok({ output: table }), ['userobjectid', 'credentialtype']), dbRows(table));
    assert.deepEqual(dbAnswer(ok({ output: 'No records found' }), ['userobjectid']), []);
    assert.equal(dbAnswer(ok({ output: table }), ['userobjectid', 'doesntexpire']), undefined);
    const notAResult = ok({ output: 'the view or column is not in the database' });
    const users = ok({ items: [{ ObjectId: 'u-1', Alias: 'jsmith', DtmfAccessId: '1001' }] });
    for (const id of ['CUC-PIN-06', 'CUC-PIN-07'])
      assert.match(
        check(id).evaluate({ users, credentials: notAResult }) ?? '',
        /^cannot judge: the vw_credential answer/,
        id,
      );
    assert.match(
      check('CUC-ACC-01').evaluate({ users, roles: notAResult }) ?? '',
      /^cannot judge: the vw_policy answer/,
    );
    for (const id of ['CUC-RST-01', 'CUC-RST-02'])
      assert.match(
        check(id).evaluate({
          tables: ok({ items: [{ ObjectId: 't-1', DisplayName: 'Default Transfer' }] }),
          patterns: notAResult,
        }) ?? '',
        /^cannot judge: the vw_restrictionpattern answer/,
        id,
      );
    assert.equal(
      certNotAfter(
        '  Validity From: Sat Oct 18 07:34:45 UTC 2025\n           To:   Wed Dec 02 07:34:45 UTC 2026',
      )?.toISOString(),
      '2026-12-02T07:34:45.000Z',
    );
    // A node prints its own zone (a public expiry script's sample: `Tue Mar 30 02:19:31 PDT 2021`).
    assert.equal(
      certNotAfter('           To:   Tue Mar  9 02:19:31 PDT 2021\r\n')?.toISOString(),
      '2021-03-09T02:19:31.000Z',
    );
    assert.ok(patternMatches('9011*', PROBES.international));
    assert.ok(patternMatches('91??????????', PROBES.longDistance));
    assert.ok(!patternMatches('91?????????', PROBES.longDistance), '? is exactly one digit');
    assert.ok(!patternMatches('????', PROBES.longDistance));

    // First match decides; digit limits refuse before any pattern; alternate-extension tables are left out.
    const tables = ok({
      items: [
        { ObjectId: 't1', DisplayName: 'Open late', MinDigits: '1', MaxDigits: '30' },
        { ObjectId: 't2', DisplayName: 'Blocked first', MinDigits: '1', MaxDigits: '30' },
        { ObjectId: 't3', DisplayName: 'Short', MinDigits: '1', MaxDigits: '10' },
        {
          ObjectId: 't4',
          DisplayName: 'User-Defined and Automatically-Added Alternate Extensions',
          MaxDigits: '30',
        },
      ],
    });
    const patterns = ok({
      output: [
        'restrictiontableobjectid  sequencenumber  blocked  numberpattern',
        '------------------------  --------------  -------  -------------',
        't1                        1               0        *',
        't1                        0               0        91*',
        't2                        0               1        9011*',
        't2                        1               0        *',
        't3                        0               0        *',
        't4                        0               0        *',
      ].join('\n'),
    });
    assert.deepEqual(tablesAllowing(tables, patterns, PROBES.international), ['Open late']);
    assert.deepEqual(tablesAllowing(tables, patterns, PROBES.longDistance), ['Open late', 'Blocked first']);

    // NTP: both spellings a VOS node prints when synchronised (tech note 215013), and the unsynchronised answer.
    const ntp = check('CUC-OS-03');
    assert.equal(
      ntp.evaluate({ ntp: ok({ output: 'unsynchronised\n  time server re-starting' }) }),
      'NTP is not synchronised: unsynchronised time server re-starting',
    );
    assert.equal(
      ntp.evaluate({ ntp: ok({ output: 'synchronised to NTP server (10.0.0.1) at stratum 2' }) }),
      undefined,
    );
    assert.equal(
      ntp.evaluate({
        ntp: ok({
          output: 'ntpd (pid 1) is running...\nsynchronized to NTP server (10.1.89.20) at stratum 4',
        }),
      }),
      undefined,
    );
    // Unreadable evidence is a finding, never a silent pass.
    assert.equal(
      check('CUC-TLS-01').evaluate({ tls: ok({ output: 'something else' }) }),
      'cannot judge: the minimum TLS version could not be read',
    );
    assert.match(check('CUC-PIN-01').evaluate({ policies: ok({ items: [] }) }) ?? '', /no voicemail PIN/);
    // Not a DRS history (the old log listing): reported, never passed.
    assert.match(check('CUC-BKP-01').evaluate({ drf: drfEvidence('drfMaster.log') }) ?? '', /cannot judge/);
    // PIN rules and web rules are told apart by name: the release's own names and the lab's.
    const rules = ok({
      items: [
        { DisplayName: 'Recommended Voice Mail Authentication Rule', MinLength: '6', MaxHacks: '5' },
        { DisplayName: 'Recommended Web Application Authentication Rule', MinLength: '8', MaxHacks: '3' },
      ],
    });
    assert.equal(check('CUC-PIN-01').evaluate({ policies: rules }), undefined);
    assert.equal(
      check('CUC-API-01').evaluate({ policies: rules }),
      'Recommended Web Application Authentication Rule: minimum length 8',
    );

    // The rule fields as CUPI documents them (MinDuration, TrivialCredChecking), for PINs and web passwords.
    const fields = (pin: Record<string, string>, web: Record<string, string>): EvidenceResult =>
      ok({
        items: [
          { DisplayName: 'Recommended Voice Mail Authentication Rule', ...pin },
          { DisplayName: 'Recommended Web Application Authentication Rule', ...web },
        ],
      });
    assert.equal(
      check('CUC-PIN-08').evaluate({ policies: fields({ MinDuration: '0' }, { MinDuration: '0' }) }),
      'Recommended Voice Mail Authentication Rule: minimum minutes between changes: 0',
    );
    assert.equal(check('CUC-PIN-08').evaluate({ policies: fields({ MinDuration: '1440' }, {}) }), undefined);
    assert.match(check('CUC-PIN-08').evaluate({ policies: fields({}, {}) }) ?? '', /unset/);
    assert.equal(
      check('CUC-API-04').evaluate({
        policies: fields({ TrivialCredChecking: 'false' }, { TrivialCredChecking: 'false' }),
      }),
      'Recommended Web Application Authentication Rule: trivial password checks are off',
    );
    assert.equal(
      check('CUC-API-04').evaluate({
        policies: fields({ TrivialCredChecking: 'false' }, { TrivialCredChecking: 'true' }),
      }),
      undefined,
    );

    // CUMI access to secure messages: the configuration value by its full name; missing is a finding.
    const cumi = (value: string | undefined): EvidenceResult =>
      ok({
        items: [
          { FullName: 'System.API.CumiAllowSecureMessageHeaders', Value: '1' },
          ...(value === undefined
            ? []
            : [{ FullName: 'System.API.CumiAccessSecureMessageAttachments', Value: value }]),
        ],
      });
    assert.equal(
      check('CUC-API-05').evaluate({ cumi: cumi('1') }),
      'System.API.CumiAccessSecureMessageAttachments is 1',
    );
    assert.equal(check('CUC-API-05').evaluate({ cumi: cumi('0') }), undefined);
    assert.match(check('CUC-API-05').evaluate({ cumi: cumi(undefined) }) ?? '', /could not be read/);

    // Web Inbox per class of service: any class granting it is a finding; a list without AccessVmi (the
    // CUPI guide's list example shows only URI, ObjectId, DisplayName) or no class at all is not assessed.
    const coses = (...c: Record<string, string>[]): EvidenceResult => ok({ items: c });
    assert.equal(
      check('CUC-API-06').evaluate({
        coses: coses(
          { DisplayName: 'Voice Mail User COS', AccessVmi: 'true' },
          { DisplayName: 'System', AccessVmi: 'false' },
        ),
      }),
      'Web Inbox granted by class of service Voice Mail User COS',
    );
    assert.equal(
      check('CUC-API-06').evaluate({
        coses: coses(
          { DisplayName: 'Voice Mail User COS', AccessVmi: 'false' },
          { DisplayName: 'System', AccessVmi: 'false' },
        ),
      }),
      undefined,
    );
    const summaryOnly = check('CUC-API-06').evaluate({
      coses: coses({ DisplayName: 'Voice Mail User COS', AccessVmi: 'false' }, { DisplayName: 'System' }),
    });
    assert.match(summaryOnly ?? '', /^cannot judge: AccessVmi is not in the list for System/);
    assert.match(
      check('CUC-API-06').evaluate({ coses: coses() }) ?? '',
      /^cannot judge: no class of service/,
    );

    // Service lines with the state padded, as some releases print a stopped service.
    assert.equal(
      check('CUC-AUD-01').evaluate({
        services: ok({ output: 'Cisco Audit Event Service[ STOPPED ]  Component is not running' }),
      }),
      'Cisco Audit Event Service is STOPPED',
    );
    assert.equal(
      check('CUC-SVC-01').evaluate({
        services: ok({ output: 'Platform Administrative Web Service[STARTED]' }),
      }),
      'Platform Administrative Web Service is started',
    );
  });
});

describe('cuc_security_audit through MCP', () => {
  let s: ProductStack;
  const prompt = CUC_CHECKLIST.prompt;
  before(async () => {
    s = await startProductStack();
  });
  after(async () => {
    await s.stop();
  });

  it('admin and auditor get the prompt natively and through infra_get_prompt; the operator is refused both', async () => {
    const args = { host: 'cuc-pub', report: 'cuc-audit.md' };
    for (const role of ['admin', 'auditor'] as const) {
      const listed = (await s.mcp[role].client.listPrompts()).prompts.map((p) => p.name);
      assert.ok(listed.includes(prompt), role);
      const native = await s.mcp[role].client.getPrompt({ name: prompt, arguments: args });
      const text = native.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
      for (const c of CUC_CHECKLIST.checks) assert.ok(text.includes(c.id), `${role}: ${c.id} in the prompt`);
      for (const command of cliCommands)
        assert.ok(text.includes(command), `${role}: ${command} in the prompt`);
      assert.ok(text.includes('cuc-audit.md'));
      assert.ok(text.includes('11 SSH calls, 5 CUPI calls'), 'the budget is stated');
      const viaInfra = await s.ok(role, 'infra_get_prompt', { name: prompt, arguments: args });
      assert.deepEqual(viaInfra.messages, native.messages);
    }
    const listed = (await s.mcp.operator.client.listPrompts()).prompts.map((p) => p.name);
    assert.ok(!listed.includes(prompt), 'the operator does not see the audit prompt');
    await assert.rejects(
      s.mcp.operator.client.getPrompt({ name: prompt, arguments: args }),
      /no prompt named cuc_security_audit/,
    );
    const refused = await s.fails('operator', 'infra_get_prompt', { name: prompt, arguments: args });
    assert.match(refused.message, /no prompt named cuc_security_audit/);
  });

  it('renders a scoped prompt and refuses an unknown scope', async () => {
    const scoped = await s.mcp.auditor.client.getPrompt({
      name: prompt,
      arguments: { host: 'cuc-pub', scope: 'restriction-tables' },
    });
    const text = scoped.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    assert.ok(text.includes('CUC-RST-01') && !text.includes('CUC-PIN-01'));
    await assert.rejects(
      s.mcp.auditor.client.getPrompt({ name: prompt, arguments: { host: 'cuc-pub', scope: 'nope' } }),
      /unknown scope nope/,
    );
  });

  it('completes the scope and report arguments', async () => {
    const complete = async (name: string, value: string): Promise<string[]> =>
      (
        await s.mcp.auditor.client.complete({
          ref: { type: 'ref/prompt', name: prompt },
          argument: { name, value },
        })
      ).completion.values;
    assert.deepEqual(await complete('scope', 'res'), ['restriction-tables']);
    assert.deepEqual(await complete('scope', ''), ['all', ...CUC_CHECKLIST.topics.map((t) => t.id)]);
    assert.deepEqual(await complete('report', 'cuc'), ['cuc_security_audit.md', 'cuc-audit.md']);
  });

  it('every evidence call the checklist names is served by the lab node to the auditor', async () => {
    for (const c of distinctCalls) {
      const r = await s.ok('auditor', c.tool, bindHost(c.args, 'cuc-pub'));
      if (c.tool === 'cuc_cupi_list') assert.ok(Number(r.total) > 0, `${JSON.stringify(c.args)}: empty`);
      else assert.ok(String(r.output).trim().length > 0, `${String(c.args.command)}: no output`);
    }
  });

  it('lists the template members and the fixed reference, and reads each the same natively and through infra_get_doc', async () => {
    const client = s.mcp.auditor.client;
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.ok(templates.includes('cuc://security-guide/{chapter}'));
    assert.ok(templates.includes('cuc://cli-guide-readonly/{topic}'));
    const uris = (await client.listResources()).resources
      .map((r) => r.uri)
      .filter((u) => u.startsWith('cuc://'));
    const expected = [
      'cuc://cupi/reference',
      ...CUC_CHECKLIST.topics.map((t) => `cuc://security-guide/${t.id}`),
      ...readdirSync(CLI_GUIDE)
        .filter((f) => f.endsWith('.md'))
        .map((f) => `cuc://cli-guide-readonly/${f.slice(0, -3)}`),
    ];
    assert.deepEqual([...uris].sort(), [...expected].sort());
    for (const uri of uris) {
      const native = (await client.readResource({ uri })).contents[0];
      const text = native && 'text' in native ? String(native.text) : '';
      assert.ok(text.startsWith('# '), uri);
      const viaInfra = await s.ok('auditor', 'infra_get_doc', { name: uri });
      assert.equal(viaInfra.text, text, uri);
    }
    const chapter = (await client.readResource({ uri: 'cuc://security-guide/restriction-tables' }))
      .contents[0];
    const chapterText = chapter && 'text' in chapter ? String(chapter.text) : '';
    for (const c of CUC_CHECKLIST.checks.filter((x) => x.topic === 'restriction-tables'))
      assert.ok(chapterText.includes(c.id) && chapterText.includes(c.remediation), c.id);
  });

  it('answers unknown chapter and topic names with a clear error that lists the members', async () => {
    const client = s.mcp.auditor.client;
    await assert.rejects(
      client.readResource({ uri: 'cuc://security-guide/nope' }),
      (err: Error) =>
        /no chapter nope/.test(err.message) && CUC_CHECKLIST.topics.every((t) => err.message.includes(t.id)),
    );
    await assert.rejects(client.readResource({ uri: 'cuc://cli-guide-readonly/nope' }), (err: Error) =>
      /no document nope; available: .*unity-database/.test(err.message),
    );
    const viaInfra = await s.fails('auditor', 'infra_get_doc', { name: 'cuc://cli-guide-readonly/nope' });
    assert.match(viaInfra.message, /no document nope/);
  });
});
