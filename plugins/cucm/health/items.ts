// The CUCM cluster health check: services, platform counters, registration, backups and certificates
// of every node, each judged OK / WARNING / CRITICAL against the thresholds below. The thresholds are
// this project's (no Cisco document we read sets them); the names each item reads carry their sources.
import type { EvidenceCall, EvidenceResult } from '../../_shared/audit/checklist.ts';
import { DRF_STATUS_REFERENCES, judgeDrfStatus } from '../../_shared/audit/drf-history.ts';
import { CONTROL_CENTER_API, CONTROL_CENTER_WSDL } from '../../_shared/audit/service-evidence.ts';
import { VOS_CERT_LIST_OWN, VOS_CERT_OWN_VALIDITY } from '../../_shared/audit/vos-references.ts';
import type { HealthCheck, HealthItem, Judgement } from '../../_shared/health/definition.ts';
import { figure, perfmonNodes, percentItem } from '../../_shared/health/readings.ts';
import {
  CALLMANAGER_COUNTERS,
  REGISTRATION_COUNTERS,
  SERVICE_NAMES,
} from '../../_shared/health/references.ts';
import { RISPORT70 } from '../audit/references.ts';

const E = {
  services: {
    id: 'services',
    tool: 'cucm_service_status',
    args: { host: '{host}', all_nodes: true },
    purpose: "every service of every node with its state and the node's reason (ControlCenterServices)",
  },
  calls: {
    id: 'calls',
    tool: 'cucm_perfmon_query',
    args: { host: '{host}', object: 'Cisco CallManager', counters: REGISTRATION_COUNTERS, all_nodes: true },
    purpose: 'devices registered to each node, and its calls with a connected voice path',
  },
  ris: {
    id: 'ris',
    tool: 'cucm_risport_query',
    args: {
      host: '{host}',
      status: 'Any',
      max_returned_devices: 1000,
      max_devices: 50_000,
      max_requests: 15,
    },
    purpose: 'every device RisPort70 knows, with its registration status (one record per device)',
  },
  drf: {
    id: 'drf',
    tool: 'cucm_drf_status',
    args: { host: '{host}' },
    purpose: 'the Disaster Recovery System backup history, the current status and the schedules',
  },
  certs: {
    id: 'certs',
    tool: 'cucm_cert_list',
    args: { host: '{host}', all_nodes: true },
    purpose: "every node's own certificates with their expiry (days_left)",
  },
} satisfies Record<string, EvidenceCall>;

const DAY_MS = 86_400_000;

function judgeServices(r: Record<string, EvidenceResult>): Judgement[] {
  const res = r.services;
  if (!res?.ok || !Array.isArray(res.data.nodes)) return [];
  const nodes = res.data.nodes as {
    node: string;
    services: { name: string; status: string; reason: string | null }[];
  }[];
  const out = nodes.map((n): Judgement => {
    const stopped = n.services.filter((s) => s.status === 'Stopped' && s.reason !== 'Service Not Activated');
    const down = stopped.filter((s) => s.reason !== 'Commanded Out of Service');
    const moving = n.services.filter((s) => !['Started', 'Stopped'].includes(s.status));
    const started = n.services.filter((s) => s.status === 'Started').length;
    const list = (x: { name: string; status: string; reason: string | null }[]): string =>
      x
        .slice(0, 6)
        .map((s) => `${s.name} ${s.status}${s.reason ? ` (${s.reason})` : ''}`)
        .join(', ') + (x.length > 6 ? `, and ${x.length - 6} more` : '');
    if (down.length > 0)
      return { subject: n.node, verdict: 'CRITICAL', observed: `activated but stopped: ${list(down)}` };
    if (stopped.length + moving.length > 0)
      return { subject: n.node, verdict: 'WARNING', observed: list([...stopped, ...moving]) };
    if (started === 0) return { subject: n.node, verdict: 'NOT ASSESSED', observed: 'no service reported' };
    return {
      subject: n.node,
      verdict: 'OK',
      observed: `${started} services started; every activated service runs`,
    };
  });
  for (const f of (res.data.failed ?? []) as { node: string; error: { code: string; message: string } }[])
    out.push({ subject: f.node, verdict: 'NOT ASSESSED', observed: `${f.error.code}: ${f.error.message}` });
  return out;
}

function judgeRegistrationCounters(r: Record<string, EvidenceResult>): Judgement[] {
  const nodes = perfmonNodes(r.calls);
  const read = nodes.filter(
    (n) => !n.error && n.values.some((v) => v.counter === 'RegisteredHardwarePhones'),
  );
  const value = (n: (typeof nodes)[number], c: string): number =>
    n.values.filter((v) => v.counter === c).reduce((a, v) => a + v.value, 0);
  const out = nodes.map((n): Judgement => {
    if (n.error)
      return { subject: n.node, verdict: 'NOT ASSESSED', observed: `${n.error.code}: ${n.error.message}` };
    if (!read.includes(n))
      return { subject: n.node, verdict: 'NOT ASSESSED', observed: 'RegisteredHardwarePhones not reported' };
    return {
      subject: n.node,
      verdict: 'OK',
      observed: `RegisteredHardwarePhones ${figure(value(n, 'RegisteredHardwarePhones'))}, RegisteredOtherStationDevices ${figure(value(n, 'RegisteredOtherStationDevices'))}, CallsActive ${figure(value(n, 'CallsActive'))}`,
    };
  });
  // A node may legitimately hold no device (a publisher without call processing): only the cluster as a
  // whole with none registered is a failure.
  if (read.length === nodes.filter((n) => !n.error).length && read.length > 0) {
    const total = read.reduce(
      (a, n) => a + value(n, 'RegisteredHardwarePhones') + value(n, 'RegisteredOtherStationDevices'),
      0,
    );
    if (total === 0)
      return [
        { subject: 'cluster', verdict: 'CRITICAL', observed: 'no device is registered to any node' },
        ...out,
      ];
  }
  return out;
}

function judgeRis(r: Record<string, EvidenceResult>): Judgement[] {
  const res = r.ris;
  if (!res?.ok || typeof res.data.by_status !== 'object' || res.data.by_status === null) return [];
  if (res.data.complete !== true) {
    const why =
      (res.data.incomplete as { reason?: string } | undefined)?.reason ??
      String(res.data.stopped_because ?? 'the answer is partial');
    return [{ subject: 'cluster', verdict: 'NOT ASSESSED', observed: `RisPort70 answered in part: ${why}` }];
  }
  const by = res.data.by_status as Record<string, number>;
  const total = Object.values(by).reduce((a, n) => a + n, 0);
  if (total === 0)
    return [{ subject: 'cluster', verdict: 'NOT ASSESSED', observed: 'RisPort70 knows no device' }];
  const registered = by.Registered ?? 0;
  const notRegistered = total - registered;
  const share = (notRegistered / total) * 100;
  const counts = Object.entries(by)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const verdict = registered === 0 || share >= 20 ? 'CRITICAL' : share >= 5 ? 'WARNING' : 'OK';
  return [
    {
      subject: 'cluster',
      verdict,
      observed: `${counts} of ${total} devices (${figure(share)}% not registered)`,
    },
  ];
}

function judgeBackups(r: Record<string, EvidenceResult>): Judgement[] {
  const res = r.drf;
  const week = judgeDrfStatus(res, 7);
  const host = res?.ok && typeof res.data.host === 'string' ? res.data.host : 'cluster';
  if (week?.startsWith('cannot judge')) return [{ subject: host, verdict: 'NOT ASSESSED', observed: week }];
  if (week !== undefined) {
    const month = judgeDrfStatus(res, 30);
    return [{ subject: host, verdict: month === undefined ? 'WARNING' : 'CRITICAL', observed: week }];
  }
  const last = res?.ok
    ? (res.data.last_backup as { result?: string; started_at?: string | null } | null)
    : null;
  const good = res?.ok ? (res.data.last_successful_backup as { started_at?: string | null } | null) : null;
  const days = good?.started_at ? Math.floor((Date.now() - Date.parse(good.started_at)) / DAY_MS) : undefined;
  const when = `last successful backup ${days ?? '?'} days ago (${good?.started_at?.slice(0, 10) ?? 'date unknown'})`;
  return last && last.result !== 'SUCCESS'
    ? [{ subject: host, verdict: 'WARNING', observed: `${when}; the latest run ended ${last.result}` }]
    : [{ subject: host, verdict: 'OK', observed: when }];
}

function judgeCertificates(r: Record<string, EvidenceResult>): Judgement[] {
  const res = r.certs;
  if (!res?.ok || !Array.isArray(res.data.nodes)) return [];
  type Node = {
    node: string;
    reached: boolean;
    error: { error: string; message: string } | null;
    own: { name: string; days_left: number | null }[];
  };
  return (res.data.nodes as Node[]).map((n): Judgement => {
    if (!n.reached || n.error)
      return {
        subject: n.node,
        verdict: 'NOT ASSESSED',
        observed: n.error ? `${n.error.error}: ${n.error.message}` : 'not reached',
      };
    const dated = n.own.filter((c) => typeof c.days_left === 'number') as {
      name: string;
      days_left: number;
    }[];
    if (dated.length === 0)
      return { subject: n.node, verdict: 'NOT ASSESSED', observed: 'no certificate with a readable expiry' };
    const soonest = dated.reduce((a, c) => (c.days_left < a.days_left ? c : a));
    const undated = n.own.length - dated.length;
    const observed = `${soonest.name} ${soonest.days_left < 0 ? `expired ${-soonest.days_left} days ago` : `expires in ${soonest.days_left} days`} (the soonest of ${dated.length})${undated > 0 ? `; ${undated} without a readable expiry` : ''}`;
    const verdict = soonest.days_left <= 14 ? 'CRITICAL' : soonest.days_left <= 60 ? 'WARNING' : 'OK';
    return { subject: n.node, verdict, observed };
  });
}

const ITEMS: HealthItem[] = [
  {
    id: 'CUCM-HEALTH-SERVICES',
    title: 'Services',
    purpose: 'Every activated service of every node should run.',
    evidence: [E.services],
    thresholds:
      'per node: CRITICAL when an activated service is Stopped (any reason but "Service Not Activated" or "Commanded Out of Service"); WARNING when a service was stopped by an administrator ("Commanded Out of Service") or is Starting, Stopping or Unknown; OK when every activated service is Started. A node listed in failed is NOT ASSESSED.',
    judge: judgeServices,
    references: [CONTROL_CENTER_API, CONTROL_CENTER_WSDL, SERVICE_NAMES],
  },
  percentItem('cucm', {
    id: 'CUCM-HEALTH-CPU',
    title: 'CPU',
    purpose: 'A node short of CPU delays call processing.',
    object: 'Processor',
    counter: '% CPU Time',
    judged: 'the busiest Processor instance',
    warn: 70,
    critical: 90,
  }),
  percentItem('cucm', {
    id: 'CUCM-HEALTH-MEMORY',
    title: 'Memory',
    purpose: 'A node short of physical memory swaps and slows every service.',
    object: 'Memory',
    counter: '% Mem Used',
    judged: 'the physical memory in use',
    warn: 85,
    critical: 95,
  }),
  percentItem('cucm', {
    id: 'CUCM-HEALTH-DISK',
    title: 'Disk partitions',
    purpose: 'A full partition stops traces, CDRs, backups and upgrades.',
    object: 'Partition',
    counter: '% Used',
    judged: 'the fullest Partition instance',
    warn: 80,
    critical: 90,
  }),
  {
    id: 'CUCM-HEALTH-CALLS',
    title: 'Registered devices and calls',
    purpose: "What each node's call processing holds now: registered phones and other devices, active calls.",
    evidence: [E.calls],
    thresholds:
      'per node: OK with its figures when RegisteredHardwarePhones is reported (a node may hold no device); the cluster is CRITICAL when no node has any device registered. A node without the counter is NOT ASSESSED.',
    judge: judgeRegistrationCounters,
    references: [CALLMANAGER_COUNTERS],
  },
  {
    id: 'CUCM-HEALTH-REGISTRATION',
    title: 'Device registration',
    purpose: 'Devices the cluster knows but that are not registered cannot make or take calls.',
    evidence: [E.ris],
    thresholds:
      'cluster: the share of devices RisPort70 reports other than Registered: OK below 5 %, WARNING from 5 %, CRITICAL from 20 % or when none is registered. A partial answer (complete false) is NOT ASSESSED.',
    judge: judgeRis,
    references: [RISPORT70],
  },
  {
    id: 'CUCM-HEALTH-BACKUP',
    title: 'Backups',
    purpose: 'Without a recent successful backup the cluster cannot be restored.',
    evidence: [E.drf],
    thresholds:
      'OK when the last successful backup is at most 7 days old and the latest run succeeded; WARNING when the latest run failed, or the last success is 8 to 30 days old; CRITICAL when it is older, or no backup ever succeeded. An unrecognised history is NOT ASSESSED.',
    judge: judgeBackups,
    references: [...DRF_STATUS_REFERENCES],
  },
  {
    id: 'CUCM-HEALTH-CERTIFICATES',
    title: 'Certificate expiry',
    purpose: 'An expired identity certificate breaks phones, web administration and trunks.',
    evidence: [E.certs],
    thresholds:
      'per node, the own certificate that expires first: OK beyond 60 days, WARNING within 60 days, CRITICAL within 14 days or expired. A node not reached, or without a readable expiry, is NOT ASSESSED.',
    judge: judgeCertificates,
    references: [VOS_CERT_LIST_OWN, VOS_CERT_OWN_VALIDITY],
  },
];

export const CUCM_HEALTH: HealthCheck = {
  product: 'cucm',
  prompt: 'cucm_health_check',
  title: 'CUCM cluster health check',
  items: ITEMS,
};
