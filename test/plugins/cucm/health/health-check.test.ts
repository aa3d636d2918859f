// The CUCM health check and registration workflow as data: the prompt rendered from the items, the
// thresholds of every item (a failed or unreadable answer is NOT ASSESSED, never OK), the report's
// layout, and every tool either prompt names checked against what ships and what its profiles may call.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { allowlisted, toolPermitted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema, type Profile } from '../../../../kernel/rbac/profile-schema.ts';
import { bindHost, type EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import type { ToolCaller } from '../../../../plugins/_shared/audit/run-checklist.ts';
import type { Verdict } from '../../../../plugins/_shared/health/definition.ts';
import { renderHealthPrompt } from '../../../../plugins/_shared/health/prompt.ts';
import { healthReportSections } from '../../../../plugins/_shared/health/report.ts';
import { runHealthCheck, type HealthRun } from '../../../../plugins/_shared/health/run.ts';
import { bindWorkflowArgs, renderWorkflow } from '../../../../plugins/_shared/health/workflow.ts';
import { CUCM_HEALTH } from '../../../../plugins/cucm/health/items.ts';
import { CUCM_TROUBLESHOOT_REGISTRATION } from '../../../../plugins/cucm/health/troubleshoot.ts';
import { loadShippedPlugins } from '../../../helpers/shipped-plugins.ts';

const HOST = 'cucm-pub';
const DAY = 86_400_000;
type Data = Record<string, unknown>;

const ok = (data: Data): EvidenceResult => ({ ok: true, data });
const perfmon = (nodes: Data[]): EvidenceResult => ok({ nodes });
const value = (counter: string, v: number, instance?: string): Data => ({
  counter,
  value: v,
  ...(instance !== undefined ? { instance } : {}),
});

/** Answers per (tool, object) as a lab-independent healthy cluster of two nodes gives them. */
function healthy(): Record<string, EvidenceResult> {
  const nodes = (counter: string, v: number): EvidenceResult =>
    perfmon(['cucm-pub', 'cucm-sub1'].map((node) => ({ node, values: [value(counter, v, '_Total')] })));
  const run = (days: number, result = 'SUCCESS'): Data => ({
    tar: `${days}.tar`,
    result,
    started_at: new Date(Date.now() - days * DAY).toISOString(),
  });
  return {
    cucm_service_status: ok({
      nodes: [
        {
          node: 'cucm-pub',
          services: [
            { name: 'Cisco CallManager', status: 'Started', reason: null },
            { name: 'Cisco DirSync', status: 'Stopped', reason: 'Service Not Activated' },
          ],
        },
      ],
      failed: [],
    }),
    Processor: nodes('% CPU Time', 20),
    Memory: nodes('% Mem Used', 50),
    Partition: nodes('% Used', 40),
    'Cisco CallManager': perfmon([
      { node: 'cucm-pub', values: [value('RegisteredHardwarePhones', 0), value('CallsActive', 0)] },
      { node: 'cucm-sub1', values: [value('RegisteredHardwarePhones', 90), value('CallsActive', 4)] },
    ]),
    cucm_risport_query: ok({ complete: true, by_status: { Registered: 97, UnRegistered: 3 } }),
    cucm_drf_status: ok({
      host: HOST,
      history: [run(1)],
      last_backup: run(1),
      last_successful_backup: run(1),
    }),
    cucm_cert_list: ok({
      nodes: [{ node: 'cucm-pub', reached: true, error: null, own: [{ name: 'tomcat', days_left: 300 }] }],
    }),
  };
}

/** A ToolCaller over answers keyed by tool (PerfMon by object), recording each call. */
function caller(answers: Record<string, EvidenceResult>, calls: string[] = []): ToolCaller {
  return (tool, args) => {
    calls.push(tool);
    const key = tool === 'cucm_perfmon_query' ? String(args.object) : tool;
    return Promise.resolve(
      answers[key] ?? { ok: false, error: 'NOT_FOUND', message: `no answer for ${key}` },
    );
  };
}

async function verdicts(
  answers: Record<string, EvidenceResult>,
): Promise<Record<string, [string, Verdict][]>> {
  const run = await runHealthCheck(CUCM_HEALTH, HOST, caller(answers));
  return Object.fromEntries(run.items.map((i) => [i.id, i.judgements.map((j) => [j.subject, j.verdict])]));
}

function defaultProfile(name: string): Profile {
  return profileSchema.parse(
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles', '_default', `${name}.json`), 'utf8')),
  );
}

describe('cucm_health_check: the prompt and its thresholds', () => {
  it('renders every item in order with its calls, thresholds, sources, budget and report steps', () => {
    const text = renderHealthPrompt(CUCM_HEALTH, HOST, 'health.md');
    let at = 0;
    for (const item of CUCM_HEALTH.items) {
      const i = text.indexOf(`### ${item.id} ${item.title}`);
      assert.ok(i > at, `${item.id} in order`);
      at = i;
      assert.ok(text.includes(item.thresholds), `${item.id}: thresholds`);
      for (const e of item.evidence)
        assert.ok(
          text.includes(`\`${e.tool}\` ${JSON.stringify(bindHost(e.args, HOST))}`),
          `${item.id}: ${e.tool}`,
        );
      for (const r of item.references) assert.ok(text.includes(r.url), `${item.id}: ${r.url}`);
    }
    // Four PerfMon objects and the service status: five calls; RIS one; DRF and certificates over SSH.
    assert.match(text, /5 SERVICEABILITY calls, 1 RIS call, 2 SSH calls/);
    assert.match(text, /`common_write_report` with name `health.md`, mode `create`/);
    assert.match(text, /mode `resume`/);
    // The summary opens the report: its heading is written first, its table inserted under it at the end.
    assert.match(text, /then the heading `## Summary`/);
    assert.match(text, /mode `insert_after`, anchor `## Summary`/);
    assert.match(text, /`common_export_report_pdf` with name `health.md`/);
    assert.match(text, /NOT ASSESSED with the reason: never OK/);
    assert.throws(() => renderHealthPrompt(CUCM_HEALTH, HOST, '../x.md'), { name: 'BadRequestError' });
  });

  it('a healthy cluster is OK everywhere; the run makes each distinct call once', async () => {
    const calls: string[] = [];
    const run = await runHealthCheck(CUCM_HEALTH, HOST, caller(healthy(), calls));
    assert.equal(calls.length, 8);
    assert.equal(run.calls, 8);
    for (const i of run.items)
      for (const j of i.judgements) assert.equal(j.verdict, 'OK', `${i.id} ${j.subject}: ${j.observed}`);
  });

  it('a failed evidence call leaves its item NOT ASSESSED with the error, the others judged', async () => {
    const answers = healthy();
    answers.Memory = { ok: false, error: 'SERVICEABILITY_ERROR', message: 'rate limited' };
    answers.cucm_drf_status = { ok: false, error: 'SSH_ERROR', message: 'refused' };
    const run = await runHealthCheck(CUCM_HEALTH, HOST, caller(answers));
    const memory = run.items.find((i) => i.id === 'CUCM-HEALTH-MEMORY')?.judgements;
    assert.deepEqual(memory, [
      { subject: 'cluster', verdict: 'NOT ASSESSED', observed: 'memory: SERVICEABILITY_ERROR: rate limited' },
    ]);
    const backup = run.items.find((i) => i.id === 'CUCM-HEALTH-BACKUP')?.judgements;
    assert.equal(backup?.[0]?.verdict, 'NOT ASSESSED');
    assert.equal(run.items.find((i) => i.id === 'CUCM-HEALTH-CPU')?.judgements[0]?.verdict, 'OK');
  });

  it('an answer without nodes, a node in error or a missing counter is NOT ASSESSED, never OK', async () => {
    const answers = healthy();
    answers.Processor = perfmon([]);
    answers.Partition = perfmon([
      { node: 'cucm-pub', values: [], error: { code: 'CredentialError', message: 'no credential' } },
      { node: 'cucm-sub1', values: [value('% Used', 10, 'Active')] },
    ]);
    answers.Memory = perfmon([{ node: 'cucm-pub', values: [value('% VM Used', 10)] }]);
    answers.cucm_cert_list = ok({
      nodes: [
        { node: 'cucm-sub1', reached: false, error: { error: 'CredentialError', message: 'none' }, own: [] },
        { node: 'cucm-pub', reached: true, error: null, own: [{ name: 'tomcat', days_left: null }] },
      ],
    });
    answers.cucm_service_status = ok({
      nodes: [],
      failed: [{ node: 'cucm-sub1', error: { code: 'NETWORK_ERROR', message: 'down' } }],
    });
    const v = await verdicts(answers);
    assert.deepEqual(v['CUCM-HEALTH-CPU'], [['cluster', 'NOT ASSESSED']]);
    assert.deepEqual(v['CUCM-HEALTH-DISK'], [
      ['cucm-pub', 'NOT ASSESSED'],
      ['cucm-sub1', 'OK'],
    ]);
    assert.deepEqual(v['CUCM-HEALTH-MEMORY'], [['cucm-pub', 'NOT ASSESSED']]);
    assert.deepEqual(v['CUCM-HEALTH-CERTIFICATES'], [
      ['cucm-sub1', 'NOT ASSESSED'],
      ['cucm-pub', 'NOT ASSESSED'],
    ]);
    assert.deepEqual(v['CUCM-HEALTH-SERVICES'], [['cucm-sub1', 'NOT ASSESSED']]);
  });

  it('percentages: the highest instance against OK / WARNING / CRITICAL', async () => {
    for (const [cpu, expected] of [
      [69.9, 'OK'],
      [70, 'WARNING'],
      [89, 'WARNING'],
      [90, 'CRITICAL'],
    ] as const) {
      const answers = healthy();
      answers.Processor = perfmon([
        { node: 'cucm-pub', values: [value('% CPU Time', 5, '_Total'), value('% CPU Time', cpu, '3')] },
      ]);
      answers.Partition = perfmon([
        { node: 'cucm-pub', values: [value('% Used', 10, 'Active'), value('% Used', cpu + 10, 'Common')] },
      ]);
      const v = await verdicts(answers);
      assert.deepEqual(v['CUCM-HEALTH-CPU'], [['cucm-pub', expected]], `CPU ${cpu}`);
      const disk = cpu + 10 >= 90 ? 'CRITICAL' : cpu + 10 >= 80 ? 'WARNING' : 'OK';
      assert.deepEqual(v['CUCM-HEALTH-DISK'], [['cucm-pub', disk]], `disk ${cpu + 10}`);
    }
  });

  it('services: not activated is fine, commanded out is a warning, any other stop is critical', async () => {
    const answers = healthy();
    answers.cucm_service_status = ok({
      nodes: [
        {
          node: 'a',
          services: [
            { name: 'Cisco Audit Event Service', status: 'Stopped', reason: 'Commanded Out of Service' },
          ],
        },
        {
          node: 'b',
          services: [{ name: 'Cisco CallManager', status: 'Stopped', reason: 'Component is not running' }],
        },
        { node: 'c', services: [{ name: 'Cisco Tftp', status: 'Starting', reason: null }] },
        {
          node: 'd',
          services: [{ name: 'Cisco DirSync', status: 'Stopped', reason: 'Service Not Activated' }],
        },
      ],
      failed: [],
    });
    assert.deepEqual((await verdicts(answers))['CUCM-HEALTH-SERVICES'], [
      ['a', 'WARNING'],
      ['b', 'CRITICAL'],
      ['c', 'WARNING'],
      // Only not-activated services: nothing runs, nothing was shown to run.
      ['d', 'NOT ASSESSED'],
    ]);
  });

  it('registration: the share not registered, a partial answer, an empty cluster', async () => {
    const ris = async (data: Data) => {
      const answers = healthy();
      answers.cucm_risport_query = ok(data);
      return (await verdicts(answers))['CUCM-HEALTH-REGISTRATION'];
    };
    assert.deepEqual(await ris({ complete: true, by_status: { Registered: 96, UnRegistered: 4 } }), [
      ['cluster', 'OK'],
    ]);
    assert.deepEqual(await ris({ complete: true, by_status: { Registered: 95, Rejected: 5 } }), [
      ['cluster', 'WARNING'],
    ]);
    assert.deepEqual(await ris({ complete: true, by_status: { Registered: 80, UnRegistered: 20 } }), [
      ['cluster', 'CRITICAL'],
    ]);
    assert.deepEqual(
      await ris({ complete: false, stopped_because: 'max_requests', by_status: { Registered: 5 } }),
      [['cluster', 'NOT ASSESSED']],
    );
    const answers = healthy();
    answers['Cisco CallManager'] = perfmon([
      {
        node: 'cucm-pub',
        values: [value('RegisteredHardwarePhones', 0), value('RegisteredOtherStationDevices', 0)],
      },
    ]);
    assert.deepEqual((await verdicts(answers))['CUCM-HEALTH-CALLS'], [
      ['cluster', 'CRITICAL'],
      ['cucm-pub', 'OK'],
    ]);
  });

  it('backups and certificates: by age and by days left', async () => {
    const run = (days: number, result = 'SUCCESS'): Data => ({
      tar: result === 'SUCCESS' ? `${days}.tar` : null,
      result,
      started_at: new Date(Date.now() - days * DAY).toISOString(),
    });
    const backup = async (history: Data[] | null) => {
      const answers = healthy();
      answers.cucm_drf_status = ok({
        host: HOST,
        history,
        last_backup: history?.[0] ?? null,
        last_successful_backup: history?.find((h) => h.result === 'SUCCESS') ?? null,
        unrecognised: [],
      });
      return (await verdicts(answers))['CUCM-HEALTH-BACKUP']?.[0]?.[1];
    };
    assert.equal(await backup([run(3)]), 'OK');
    assert.equal(await backup([run(1, 'ERROR'), run(3)]), 'WARNING');
    assert.equal(await backup([run(10)]), 'WARNING');
    assert.equal(await backup([run(40)]), 'CRITICAL');
    assert.equal(await backup([]), 'CRITICAL');
    assert.equal(await backup(null), 'NOT ASSESSED');
    for (const [days, expected] of [
      [61, 'OK'],
      [60, 'WARNING'],
      [14, 'CRITICAL'],
      [-3, 'CRITICAL'],
    ] as const) {
      const answers = healthy();
      answers.cucm_cert_list = ok({
        nodes: [
          {
            node: 'cucm-pub',
            reached: true,
            error: null,
            own: [
              { name: 'tomcat', days_left: 900 },
              { name: 'CallManager', days_left: days },
            ],
          },
        ],
      });
      assert.deepEqual(
        (await verdicts(answers))['CUCM-HEALTH-CERTIFICATES'],
        [['cucm-pub', expected]],
        `${days}`,
      );
    }
  });

  it('the report: a section per item with a row per node, and a summary of the worst verdicts', async () => {
    const answers = healthy();
    answers.Processor = perfmon([{ node: 'cucm-sub1', values: [value('% CPU Time', 95, '0')] }]);
    answers.Memory = { ok: false, error: 'SERVICEABILITY_ERROR', message: 'a | b' };
    const run: HealthRun = await runHealthCheck(CUCM_HEALTH, HOST, caller(answers));
    const parts = healthReportSections(CUCM_HEALTH, HOST, run, new Date('2026-11-26T10:00:00Z'));
    assert.match(parts.head, /^# CUCM cluster health check: cucm-pub\n\nDate: 2026-11-26 10:00 UTC/);
    assert.match(parts.head, /\n## Summary\n\nEach item's worst verdict/);
    assert.equal(parts.sections.length, CUCM_HEALTH.items.length);
    const text = [...parts.sections, parts.summary].join('');
    assert.match(text, /## CPU \(CUCM-HEALTH-CPU\)/);
    assert.match(text, /\| cucm-sub1 \| \*\*CRITICAL\*\* \| % CPU Time 95% \|/);
    assert.match(text, /\| cluster \| \*\*NOT ASSESSED\*\* \| memory: SERVICEABILITY_ERROR: a \\\| b \|/);
    assert.match(text, /\| CPU \| \*\*CRITICAL\*\* \| cucm-sub1: CRITICAL \|/);
    assert.match(text, /\| Memory \| \*\*NOT ASSESSED\*\* \| cluster: NOT ASSESSED \|/);
    assert.match(text, /Rows: CRITICAL 1, WARNING 0, NOT ASSESSED 1, OK \d+\./);
  });
});

describe('cucm_troubleshoot_registration: the guided workflow', () => {
  it('renders the steps with the host and device bound, the decisions and the sources', () => {
    const text = renderWorkflow(CUCM_TROUBLESHOOT_REGISTRATION, {
      host: HOST,
      device: 'SEP0011*',
      symptom: 'phones in building B show "Registering"',
    });
    assert.match(text, /"select_items":\["SEP0011\*"\]/);
    assert.match(text, /phones in building B show "Registering"/);
    for (const [i, step] of CUCM_TROUBLESHOOT_REGISTRATION.steps.entries()) {
      assert.ok(text.includes(`## Step ${i + 1}: ${step.title}`));
      for (const c of step.calls) assert.ok(text.includes(`\`${c.tool}\` `), c.tool);
      for (const d of step.decisions) assert.ok(text.includes(d));
    }
    assert.throws(
      () => renderWorkflow(CUCM_TROUBLESHOOT_REGISTRATION, { host: HOST, device: 'SEP<x>', symptom: '' }),
      { name: 'BadRequestError' },
    );
  });
});

describe('every tool the two prompts name ships and is permitted to their profiles', () => {
  it('tools exist, arguments validate against their schemas, profiles may call them', async () => {
    const registry = await loadShippedPlugins();
    const health = registry.prompts.get('cucm_health_check')?.def;
    const workflow = registry.prompts.get('cucm_troubleshoot_registration')?.def;
    assert.ok(health && workflow, 'both prompts are registered by the CUCM plugin');
    const calls = [
      ...CUCM_HEALTH.items.flatMap((i) =>
        i.evidence.map((e) => ({
          tool: e.tool,
          args: bindHost(e.args, HOST),
          profiles: health.profiles ?? [],
        })),
      ),
      ...CUCM_TROUBLESHOOT_REGISTRATION.steps.flatMap((s) =>
        s.calls.map((c) => ({
          tool: c.tool,
          args: c.fillIn ? undefined : bindWorkflowArgs(c.args, HOST, 'SEP0011*'),
          profiles: workflow.profiles ?? [],
        })),
      ),
    ];
    assert.deepEqual(health.profiles, ['admin', 'auditor']);
    assert.deepEqual(workflow.profiles, ['admin', 'operator']);
    for (const c of calls) {
      const tool = registry.tools.get(c.tool);
      assert.ok(tool, `no shipped tool ${c.tool}`);
      const input = c.args ? (tool.schema.parse(c.args) as Record<string, unknown>) : undefined;
      for (const name of c.profiles) {
        const profile = defaultProfile(name);
        assert.ok(toolPermitted(profile, c.tool), `${name} may not call ${c.tool}`);
        const access = tool.def.access;
        if ('allowlist' in access && input) {
          const subject = access.subject(input);
          assert.ok(
            allowlisted(profile, access.allowlist, subject),
            `${name}: ${access.allowlist} refuses ${subject}`,
          );
        }
      }
    }
    // The one call whose arguments come from an earlier answer, checked with a path of the form it takes.
    const collect = registry.tools.get('cucm_log_collect');
    assert.ok(collect);
    const input = collect.schema.parse({
      host: HOST,
      files: ['/var/log/active/cm/trace/ccm/sdl/SDL001_100_000001.txt.gz'],
    });
    const access = collect.def.access;
    for (const name of workflow.profiles ?? [])
      if ('allowlist' in access)
        assert.ok(allowlisted(defaultProfile(name), access.allowlist, access.subject(input as never)), name);
    // The auditor may not collect trace files: it is not offered the workflow.
    assert.equal(toolPermitted(defaultProfile('auditor'), 'cucm_log_collect'), false);
  });
});
