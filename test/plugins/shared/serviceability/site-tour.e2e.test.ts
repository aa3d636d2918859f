// Issue 22's "done when", first point, in one place: every tool of the serviceability table (and its
// imp_/cuc_ twins) answers through a real MCP client against the lab at the `site` scale, each with real
// content from the node it asked, and each audited as ALLOWED with the node operation it performed. The
// refusals and limits of each tool have their own files beside this one (perfmon, log-list, log-collect,
// cdr-files, cdr-get, service-control, trace-level, cli-parsed-tools, ris-cti, inner-operations).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LabNodeInfo } from '../../../../lab/index.ts';
import { cdrDateTime } from '../../../../lab/cucm/cdr/repository.ts';
import { actionOutcomes } from '../../../helpers/kernel.ts';
import {
  prepareCucm,
  prepareNode,
  startProductStack,
  type ProductStack,
  type Role,
} from '../../../helpers/product-stack.ts';
import { freePort } from '../../../helpers/server-process.ts';

type Rec = Record<string, unknown>;
type Check = (r: Rec) => void;

interface Step {
  tool: string;
  role: Role;
  args: Rec;
  /** A change the profile must confirm: previewed first, then sent with the preview's plan_id. */
  planned?: true;
  check: Check;
}

const list = (r: Rec, key: string): Rec[] => {
  const v = r[key];
  assert.ok(Array.isArray(v), `${key} is a list: ${JSON.stringify(r).slice(0, 300)}`);
  return v as Rec[];
};

describe('every serviceability tool at the site scale through MCP', () => {
  let s: ProductStack;
  const node: Record<'cucm' | 'imp' | 'cuc', LabNodeInfo> = {} as never;
  before(async () => {
    const port = await freePort();
    s = await startProductStack({
      lab: { scale: 'site', cdrPushPort: port },
      env: {
        CDR_SFTP_ADDRESS: '127.0.0.1',
        CDR_SFTP_BIND_ADDRESS: '127.0.0.1',
        CDR_SFTP_PORT: String(port),
        CDR_SFTP_TIMEOUT_MS: '10000',
      },
    });
    node.cucm = await prepareCucm(s);
    await s.ok('admin', 'cucm_download_ris_toolkit', { host: node.cucm.name });
    for (const p of ['imp', 'cuc'] as const) node[p] = await prepareNode(s, p);
  });
  after(async () => {
    await s?.stop();
  });

  /** Calls each step, checks its answer, and finds it in the audit log as ALLOWED. */
  async function tour(steps: Step[]): Promise<void> {
    for (const step of steps) {
      const mark = s.mark();
      const args = step.planned ? await s.plan(step.role, step.tool, step.args) : step.args;
      const r = await s.ok(step.role, step.tool, args);
      step.check(r);
      const outcomes = actionOutcomes(s.auditSince(mark)).filter((a) => a.tool_name === step.tool);
      assert.ok(outcomes.length > 0, `${step.tool} audited`);
      for (const o of outcomes) assert.equal(o.result, 'ALLOWED', step.tool);
    }
  }

  /** The tools every VOS product has: PerfMon, ControlCenterServices, logs, traces, DRF, certificates. */
  function vosSteps(
    p: 'cucm' | 'imp' | 'cuc',
    object: string,
    counter: string,
    service: string,
    controlled = service,
  ): Step[] {
    const host = node[p].name;
    let logPath = '';
    return [
      {
        tool: `${p}_perfmon_list_counters`,
        role: 'auditor',
        args: { host, object },
        check: (r) => {
          const objects = list(r, 'objects');
          const counters = (objects[0]?.counters ?? []) as { name: string; description?: string }[];
          assert.ok(
            counters.some((c) => c.name === counter),
            `${counter} listed: ${JSON.stringify(counters)}`,
          );
        },
      },
      {
        tool: `${p}_perfmon_query`,
        role: 'auditor',
        args: { host, object, counters: [counter] },
        check: (r) => {
          const values = (list(r, 'nodes')[0]?.values ?? []) as { counter: string; value: number }[];
          assert.equal(values[0]?.counter, counter);
          assert.equal(typeof values[0]?.value, 'number');
        },
      },
      {
        tool: `${p}_service_status`,
        role: 'auditor',
        args: { host, services: [service] },
        check: (r) => {
          const services = (list(r, 'nodes')[0]?.services ?? []) as { name: string; status: string }[];
          assert.deepEqual(
            services.map((x) => [x.name, x.status]),
            [[service, 'Started']],
          );
        },
      },
      {
        tool: `${p}_service_control`,
        role: 'admin',
        args: { host, action: 'restart', services: [controlled] },
        planned: true,
        check: (r) => assert.ok(JSON.stringify(r).includes(controlled), JSON.stringify(r)),
      },
      {
        tool: `${p}_log_list`,
        role: 'operator',
        args: { host, services: [service], since_minutes: 24 * 60 },
        check: (r) => {
          const files = (list(r, 'nodes')[0]?.files ?? []) as { path: string }[];
          assert.ok(files.length > 0, `${service} has log files`);
          logPath = files[0]?.path ?? '';
        },
      },
      {
        tool: `${p}_log_collect`,
        role: 'operator',
        get args() {
          return { host, files: [logPath] };
        },
        check: (r) => {
          const files = list(r, 'files') as { path: string; bytes_kept: number }[];
          assert.equal(files[0]?.path, logPath);
          assert.ok((files[0]?.bytes_kept ?? 0) > 0);
        },
      },
      {
        tool: `${p}_trace_level`,
        role: 'auditor',
        args: { host },
        check: (r) =>
          assert.ok(((list(r, 'nodes')[0]?.tasks ?? []) as string[]).length > 0, JSON.stringify(r)),
      },
      {
        tool: `${p}_drf_status`,
        role: 'auditor',
        args: { host },
        check: (r) => assert.ok('history' in r && 'schedules' in r && 'last_backup' in r),
      },
      {
        tool: `${p}_cert_list`,
        role: 'auditor',
        args: { host },
        check: (r) => {
          const own = (list(r, 'nodes')[0]?.own ?? []) as { name: string; not_after?: string }[];
          assert.ok(
            own.some((c) => c.name.startsWith('tomcat')),
            JSON.stringify(own.map((c) => c.name)),
          );
        },
      },
    ];
  }

  it('CUCM: the whole table, CDR on Demand and RisPort70 CTI included', async () => {
    const host = node.cucm.name;
    const from = cdrDateTime(Math.floor(Date.now() / 3_600_000) * 60 - 120);
    let cdrName = '';
    await tour([
      ...vosSteps('cucm', 'Cisco CallManager', 'RegisteredHardwarePhones', 'Cisco CallManager'),
      {
        tool: 'cucm_cdr_files',
        role: 'auditor',
        args: { host, from },
        check: (r) => {
          const files = list(r, 'files') as { name: string; kind: string }[];
          cdrName = files.find((f) => f.kind === 'cdr')?.name ?? '';
          assert.ok(cdrName, 'a CDR file in the last two hours');
        },
      },
      {
        tool: 'cucm_cdr_get',
        role: 'auditor',
        get args() {
          return { host, files: [cdrName] };
        },
        check: (r) => {
          const [f] = list(r, 'files') as { name: string; records: number }[];
          assert.equal(f?.name, cdrName);
          assert.ok((f?.records ?? 0) > 0);
        },
      },
      {
        tool: 'cucm_risport_query',
        role: 'auditor',
        args: { host, kind: 'cti' },
        check: (r) => {
          assert.equal(r.operation, 'selectCtiItem');
          assert.ok(list(r, 'cti_items').length > 0);
        },
      },
    ]);
    // The site scale's subscribers are real nodes of the cluster: the cluster forms reach them.
    const subs = (node.cucm.subscribers ?? []).map((n) => n.name);
    assert.ok(subs.length > 0);
    const logs = await s.ok('auditor', 'cucm_log_list', { host });
    const listed = (logs.cluster as { node: string }[]).map((n) => n.node);
    for (const sub of subs) assert.ok(listed.includes(sub), `${sub} in ${listed.join(', ')}`);
  });

  it('IM&P: every twin', async () => {
    // The XCP Router is a network service: ControlCenterServices refuses to restart it (as the lab does).
    await tour(vosSteps('imp', 'Memory', '% Mem Used', 'Cisco XCP Router', 'Cisco Presence Engine'));
  });

  it('Unity Connection: every twin', async () => {
    await tour(vosSteps('cuc', 'Memory', '% Mem Used', 'Connection Conversation Manager'));
  });
});
