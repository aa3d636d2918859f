// The CUCM security-audit checklist against what ships: every tool, AXL operation and CLI command it
// names exists, is allowed to the auditor (and the admin) by the default profiles, and is something the
// lab serves; every SQL statement runs on the lab's database. Then the prompt and the reference
// resources through a real MCP client: who may get the prompt, its arguments and completions, the
// templates' members, clear errors for unknown names, and the infra tools returning the same content.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { allowlisted, rateWindow, toolPermitted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema, type Profile } from '../../../../kernel/rbac/profile-schema.ts';
import { cucmOperations } from '../../../../lab/cucm/axl/operations.ts';
import { seedCucm } from '../../../../lab/cucm/seed.ts';
import { CUCM_VERSION } from '../../../../lab/cucm/topology.ts';
import { runQuery } from '../../../../lab/informix/sql-executor.ts';
import { matchCommand } from '../../../../lab/vos/commands/table.ts';
import { resolveWeaknesses, seededWeaknesses } from '../../../../lab/weaknesses/index.ts';
import { bindHost, SEVERITIES, type EvidenceCall } from '../../../../plugins/_shared/audit/checklist.ts';
import { budget, serviceOf } from '../../../../plugins/_shared/audit/render-prompt.ts';
import { validateCommand } from '../../../../plugins/_shared/vos/command-policy.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { startTestKernel, type TestKernel } from '../../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../../helpers/mcp-client.ts';
import { loadShippedPlugins } from '../../../helpers/shipped-plugins.ts';

const HOST = 'cucm-pub';
const CLI_GUIDE = join(PROJECT_ROOT, 'plugins', 'cucm', 'audit', 'cli-guide');

function defaultProfile(name: string): Profile {
  return profileSchema.parse(
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles', '_default', `${name}.json`), 'utf8')),
  );
}

/** Every distinct evidence call of the checklist, bound to a host as the runner binds it. */
function evidenceCalls(): EvidenceCall[] {
  const seen = new Map<string, EvidenceCall>();
  for (const c of CUCM_CHECKLIST.checks)
    for (const e of c.evidence) {
      const args = bindHost(e.args, HOST);
      seen.set(JSON.stringify([e.tool, args]), { ...e, args });
    }
  return [...seen.values()];
}

/** The text of a resources/read answer. */
function contentText(r: { contents: ({ text: string } | { blob: string })[] }): string {
  const first = r.contents[0];
  return first && 'text' in first ? first.text : '';
}

const inner = (e: EvidenceCall): Record<string, unknown> => (e.args.args ?? {}) as Record<string, unknown>;

describe('the CUCM security-audit checklist', () => {
  it('covers every topic of the issue, with unique ids, known topics, severities and complete text', () => {
    const topics = CUCM_CHECKLIST.topics.map((t) => t.id);
    // The topics, in its order, as the checklist names them.
    assert.deepEqual(topics, [
      'platform',
      'tls',
      'fips',
      'certificates',
      'cluster-security',
      'sip-trunks',
      'phones',
      'credentials',
      'privileged-accounts',
      'services',
      'auto-registration',
      'toll-fraud',
      'audit-logging',
      'backups',
      'authentication',
      'snmp',
    ]);
    for (const t of topics)
      assert.ok(
        CUCM_CHECKLIST.checks.some((c) => c.topic === t),
        `no check for topic ${t}`,
      );
    const ids = CUCM_CHECKLIST.checks.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'check ids are unique');
    for (const c of CUCM_CHECKLIST.checks) {
      assert.match(c.id, /^CUCM-[A-Z]+-\d{2}$/);
      assert.ok(topics.includes(c.topic), `${c.id}: unknown topic ${c.topic}`);
      assert.ok(SEVERITIES.includes(c.severity), c.id);
      assert.ok(c.evidence.length > 0, `${c.id} gathers no evidence`);
      for (const text of [c.title, c.rationale, c.condition, c.remediation])
        assert.ok(text.length > 10, `${c.id}: missing text`);
      assert.equal(new Set(c.evidence.map((e) => e.id)).size, c.evidence.length, `${c.id}: evidence ids`);
    }
    assert.equal(CUCM_CHECKLIST.prompt, 'cucm_security_audit');
  });

  it('names a check for every seeded weakness of the lab', () => {
    const ids = new Set(CUCM_CHECKLIST.checks.map((c) => c.id));
    const weak = seededWeaknesses('weak', 'cucm');
    assert.ok(weak.length >= 20, `${weak.length} seeded weaknesses`);
    assert.equal(new Set(weak.map((w) => w.id)).size, weak.length, 'weakness ids are unique');
    for (const w of weak) {
      assert.equal(w.product, 'cucm');
      assert.ok(ids.has(w.check), `${w.id} names unknown check ${w.check}`);
    }
    assert.deepEqual(seededWeaknesses('hardened', 'cucm'), []);
  });

  it('calls only shipped tools, with valid arguments, that the auditor and the admin may call', async () => {
    const registry = await loadShippedPlugins();
    const auditor = defaultProfile('auditor');
    const admin = defaultProfile('admin');
    const operator = defaultProfile('operator');
    for (const e of evidenceCalls()) {
      const tool = registry.tools.get(e.tool);
      assert.ok(tool, `${e.id}: no shipped tool ${e.tool}`);
      // The tool's own input schema: the arguments an agent copies from the prompt must validate.
      const input = tool.schema.parse(e.args) as Record<string, unknown>;
      for (const profile of [auditor, admin]) {
        assert.ok(toolPermitted(profile, e.tool), `${profile.name} may not call ${e.tool}`);
        const access = tool.def.access;
        if ('allowlist' in access) {
          const subject = access.subject(input);
          assert.ok(
            allowlisted(profile, access.allowlist, subject),
            `${profile.name}: ${access.allowlist} allowlist refuses ${subject}`,
          );
        }
      }
      // The operator could make these calls; the prompt itself is what is refused (tested below).
      assert.ok(toolPermitted(operator, e.tool));
    }
  });

  it('uses read-only AXL operations the lab serves, and SQL the lab database answers', () => {
    const lab = new Map(cucmOperations(CUCM_VERSION).map((o) => [o.name, o]));
    const db = seedCucm({ profile: 'weak', weaknesses: resolveWeaknesses('weak') }, 0, 15);
    const axlCalls = evidenceCalls().filter((e) => e.tool === 'cucm_axl_call');
    assert.ok(axlCalls.length > 0);
    for (const e of axlCalls) {
      const operation = String(e.args.operation);
      const op = lab.get(operation);
      assert.ok(op, `the lab has no AXL operation ${operation}`);
      assert.equal(op.write, false, `${operation} writes`);
      assert.match(operation, /^(get|list)[A-Z]|^executeSQLQuery$/);
      if (operation === 'executeSQLQuery') {
        const sql = String(inner(e).sql);
        assert.match(sql, /^select /i);
        assert.doesNotThrow(() => runQuery(db, sql), sql);
      }
    }
  });

  it('runs CLI commands the lab knows, each allowed to the auditor as a whole normalised line', () => {
    const auditor = defaultProfile('auditor');
    const commands = evidenceCalls()
      .filter((e) => e.tool === 'cucm_os_run_command')
      .map((e) => String(e.args.command));
    assert.ok(commands.length > 0);
    for (const c of commands) {
      assert.equal(validateCommand(c), c, `${c} is not normalised`);
      assert.ok(matchCommand(c, 'cucm'), `the lab does not know ${c}`);
      assert.ok(allowlisted(auditor, 'ssh', c), c);
      assert.ok(!/^(set|unset|delete|utils (service restart|system))/.test(c), `${c} is not read-only`);
    }
    // The CLI guide documents every command the audit runs (the certificate names aside).
    const guide = readdirSync(CLI_GUIDE)
      .map((f) => readFileSync(join(CLI_GUIDE, f), 'utf8'))
      .join('\n');
    for (const c of commands) {
      const documented = c.startsWith('show cert own ')
        ? 'show cert own'
        : c.replace(/ (date|detail)\b/g, '').replace(/activelog .*$/, '');
      assert.ok(guide.includes(documented.trim()), `the CLI guide does not describe ${c}`);
    }
  });

  it('fits well inside the auditor and admin rate limits in one minute', () => {
    const b = budget(CUCM_CHECKLIST.checks, HOST);
    assert.deepEqual(Object.keys(b).sort(), ['axl', 'ris', 'serviceability', 'ssh']);
    for (const name of ['auditor', 'admin']) {
      const profile = defaultProfile(name);
      for (const [service, n] of Object.entries(b)) {
        const w = rateWindow(profile, 'cucm', service as 'axl' | 'ssh' | 'ris' | 'serviceability');
        assert.ok(n * 2 <= w.limit * (w.windowSeconds / 60), `${name} ${service}: ${n} of ${w.limit}`);
      }
    }
    // RIS is limited cluster-wide by the node (15 a minute): the audit spends at most two requests.
    const ris = evidenceCalls().filter((e) => serviceOf(e.tool) === 'ris');
    assert.ok(ris.every((e) => Number(e.args.max_requests) <= 2));
  });
});

describe('cucm_security_audit and the CUCM reference resources through MCP', () => {
  let k: TestKernel;
  const c = {} as Record<'admin' | 'operator' | 'auditor', ConnectedClient>;
  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp', 'cuc'] },
      env: {
        AUTH_CLIENTS: 'admin1:admin:cucm,operator1:operator:cucm,auditor1:auditor:cucm',
        AUTH_BCRYPT_COST: '4',
      },
    });
    for (const r of ['admin', 'operator', 'auditor'] as const)
      c[r] = await connectMcp(k, startupToken(k.stateDir, `${r}1`));
  });
  after(async () => {
    for (const x of Object.values(c)) await x.close();
    await k.stop();
  });

  const promptText = async (role: 'admin' | 'auditor', args: Record<string, string>): Promise<string> => {
    const p = await c[role].client.getPrompt({ name: 'cucm_security_audit', arguments: args });
    return p.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
  };

  it('gives the prompt to the admin and the auditor, rendered from the checklist, and refuses the operator', async () => {
    for (const role of ['admin', 'auditor'] as const) {
      const listed = await c[role].client.listPrompts();
      const p = listed.prompts.find((x) => x.name === 'cucm_security_audit');
      assert.ok(p, role);
      assert.deepEqual(
        p.arguments?.map((a) => [a.name, a.required ?? false]),
        [
          ['host', true],
          ['report', false],
          ['scope', false],
        ],
      );
      const text = await promptText(role, { host: HOST });
      for (const check of CUCM_CHECKLIST.checks) {
        assert.ok(text.includes(`${check.id} ${check.title}`), `${role}: ${check.id}`);
        for (const e of check.evidence)
          assert.ok(text.includes(JSON.stringify(bindHost(e.args, HOST))), `${check.id}: ${e.id}`);
      }
      assert.ok(text.includes('cucm_security_audit_cucm-pub.md'));
    }
    const operatorList = await c.operator.client.listPrompts();
    assert.ok(!operatorList.prompts.some((x) => x.name === 'cucm_security_audit'));
    await assert.rejects(
      c.operator.client.getPrompt({ name: 'cucm_security_audit', arguments: { host: HOST } }),
      /no prompt named cucm_security_audit/,
    );
    const viaInfra = await c.operator.call('infra_get_prompt', {
      name: 'cucm_security_audit',
      arguments: { host: HOST },
    });
    assert.equal(viaInfra.isError, true);
  });

  it('narrows the prompt by scope, completes its arguments, and refuses unknown scopes and bad names', async () => {
    const scoped = await promptText('auditor', { host: HOST, scope: 'toll-fraud,backups' });
    const included = CUCM_CHECKLIST.checks.filter((x) => ['toll-fraud', 'backups'].includes(x.topic));
    for (const check of CUCM_CHECKLIST.checks)
      assert.equal(scoped.includes(`#### ${check.id} `), included.includes(check), check.id);
    const complete = async (argument: string, value: string): Promise<string[]> =>
      (
        await c.auditor.client.complete({
          ref: { type: 'ref/prompt', name: 'cucm_security_audit' },
          argument: { name: argument, value },
        })
      ).completion.values;
    assert.deepEqual(await complete('scope', 'to'), ['toll-fraud']);
    assert.deepEqual(await complete('scope', ''), ['all', ...CUCM_CHECKLIST.topics.map((t) => t.id)]);
    assert.deepEqual(await complete('report', 'cucm_'), ['cucm_security_audit.md']);
    await assert.rejects(promptText('auditor', { host: HOST, scope: 'bogus' }), /unknown scope bogus/);
    await assert.rejects(promptText('auditor', { host: HOST, report: '../x.md' }), /report must be/);
    await assert.rejects(promptText('auditor', {}), /needs the argument host/);
  });

  it('infra_get_prompt returns the same content as prompts/get', async () => {
    const args = { host: HOST, report: 'audit.md' };
    const native = await c.auditor.client.getPrompt({ name: 'cucm_security_audit', arguments: args });
    const infra = await c.auditor.call('infra_get_prompt', { name: 'cucm_security_audit', arguments: args });
    assert.equal(infra.isError, undefined, JSON.stringify(infra.structuredContent));
    assert.deepEqual(infra.structuredContent?.messages, native.messages);
    assert.equal(infra.structuredContent?.description, native.description);
  });

  it('lists the templates and their members; reads each natively and through infra_get_doc alike', async () => {
    const templates = (await c.auditor.client.listResourceTemplates()).resourceTemplates.map(
      (t) => t.uriTemplate,
    );
    assert.ok(templates.includes('cucm://security-guide/{chapter}'));
    assert.ok(templates.includes('cucm://cli-guide/{topic}'));
    const listed = (await c.auditor.client.listResources()).resources.map((r) => r.uri);
    const chapters = CUCM_CHECKLIST.topics.map((t) => `cucm://security-guide/${t.id}`);
    const cliTopics = readdirSync(CLI_GUIDE)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `cucm://cli-guide/${f.slice(0, -3)}`);
    assert.ok(cliTopics.length >= 4);
    for (const uri of [...chapters, ...cliTopics]) {
      assert.ok(listed.includes(uri), `resources/list lacks ${uri}`);
      const native = await c.auditor.client.readResource({ uri });
      const text = contentText(native);
      assert.match(text, /^# /, uri);
      const infra = await c.auditor.call('infra_get_doc', { name: uri });
      assert.equal(infra.isError, undefined, JSON.stringify(infra.structuredContent));
      assert.equal(infra.structuredContent?.text, text, uri);
    }
    // A security-guide chapter carries its checks' conditions and remediations.
    const toll = await c.auditor.client.readResource({ uri: 'cucm://security-guide/toll-fraud' });
    const tollText = contentText(toll);
    for (const check of CUCM_CHECKLIST.checks.filter((x) => x.topic === 'toll-fraud')) {
      assert.ok(tollText.includes(check.id));
      assert.ok(tollText.includes(check.remediation));
    }
  });

  it('answers an unknown member with a clear error naming the available ones', async () => {
    await assert.rejects(
      c.auditor.client.readResource({ uri: 'cucm://cli-guide/no-such-topic' }),
      (err: Error) =>
        /no document no-such-topic; available: .*show-commands/.test(err.message) &&
        /NOT_FOUND|NotFound/i.test(err.message),
    );
    await assert.rejects(
      c.auditor.client.readResource({ uri: 'cucm://security-guide/firewalls' }),
      /no chapter firewalls; chapters: platform, tls/,
    );
    const infra = await c.auditor.call('infra_get_doc', { name: 'cucm://cli-guide/no-such-topic' });
    assert.equal(infra.isError, true);
    assert.match(String(infra.structuredContent?.message), /available: /);
  });
});
