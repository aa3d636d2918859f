// The PerfMon objects and counters a lab node reports, with their descriptions and values derived from
// the node's state. Each object says where its names come from: a public sample or guide that prints
// them, or "lab reading" when none we read does. Descriptions and values are the lab's own:
// registrations from RIS, platform figures from fixed shares of a simulated machine.
import type { ServiceabilityView } from '../services.ts';

/** `instant`: one sample gives the value. `percentage`: two samples (developer.cisco.com PerfMon Overview). */
export type CounterKind = 'instant' | 'percentage';

export interface LabCounter {
  name: string;
  description: string;
  kind: CounterKind;
  /** The value now for an instance (instant), or the busy share in percent (percentage). */
  value: (instance: string) => number;
}

export interface LabObject {
  name: string;
  /** Instances of a multi-instance object; undefined for a single-instance one. */
  instances?: () => string[];
  counters: LabCounter[];
}

const CPUS = ['_Total', '0', '1', '2', '3'];
const PARTITIONS = ['Active', 'Boot', 'Common', 'Inactive', 'Swap'];

/** A steady share per instance, so a test can predict a percentage counter's value. */
function share(instance: string, base: number): number {
  if (instance === '_Total') return base;
  return base + (Number(instance) % 2 === 0 ? 2 : -2);
}

/** Objects of every VOS node. */
function platform(view: ServiceabilityView): LabObject[] {
  const totalKb = 16 * 1024 * 1024;
  const usedKb = Math.round(totalKb * 0.62);
  const uptime = (): number => Math.floor((Date.now() - view.bootedAt) / 1000);
  return [
    {
      // Lab reading: no public document we read prints these counter names.
      name: 'Memory',
      counters: [
        {
          name: '% Mem Used',
          kind: 'instant',
          description: 'The percentage of physical memory in use.',
          value: () => 62,
        },
        {
          name: '% VM Used',
          kind: 'instant',
          description: 'The percentage of system virtual memory in use.',
          value: () => 41,
        },
        {
          name: 'Total KBytes',
          kind: 'instant',
          description: 'The total physical memory of the system, in kilobytes.',
          value: () => totalKb,
        },
        {
          name: 'Used KBytes',
          kind: 'instant',
          description: 'The physical memory in use, in kilobytes.',
          value: () => usedKb,
        },
        {
          name: 'Free KBytes',
          kind: 'instant',
          description: 'The physical memory free, in kilobytes.',
          value: () => totalKb - usedKb,
        },
      ],
    },
    {
      // Processor(0) with % CPU Time, IOwait Percentage and Idle Percentage: Cisco's own sample,
      // CiscoDevNet/serviceability-python-zeep-samples, perfmonPort_collect_session_data.py.
      name: 'Processor',
      instances: () => CPUS,
      counters: [
        {
          name: '% CPU Time',
          kind: 'percentage',
          description: "The processor's share of time spent executing a non-idle thread.",
          value: (i) => share(i, 14),
        },
        {
          name: 'Idle Percentage',
          kind: 'percentage',
          description: 'The share of time the processor was idle and had no outstanding disk I/O.',
          value: (i) => 100 - share(i, 14),
        },
        {
          name: 'IOwait Percentage',
          kind: 'percentage',
          description:
            'The share of time the processor was idle while the system had an outstanding disk I/O.',
          value: () => 1,
        },
      ],
    },
    {
      // Lab reading.
      name: 'Partition',
      instances: () => PARTITIONS,
      counters: [
        {
          name: '% Used',
          kind: 'instant',
          description: 'The percentage of disk space in use on this file system.',
          value: (i) => ({ Active: 38, Boot: 21, Common: 47, Inactive: 35, Swap: 3 })[i] ?? 0,
        },
        {
          name: 'Total Mbytes',
          kind: 'instant',
          description: 'The size of this file system, in megabytes.',
          value: (i) =>
            ({ Active: 22_000, Boot: 250, Common: 60_000, Inactive: 22_000, Swap: 8_000 })[i] ?? 0,
        },
      ],
    },
    {
      // Lab reading.
      name: 'System',
      counters: [
        {
          name: 'Total Processes',
          kind: 'instant',
          description: 'The number of processes on the system.',
          // The platform's own processes and one per running service: a service stopped on one node
          // shows in that node's count only.
          value: () => 380 + (view.services?.list().filter((r) => r.running).length ?? 32),
        },
        {
          name: 'Total Threads',
          kind: 'instant',
          description: 'The number of threads on the system.',
          value: () => 2_310,
        },
        {
          name: 'Uptime',
          kind: 'instant',
          description: 'Seconds since the system last started (lab reading of the counter name).',
          value: () => uptime(),
        },
      ],
    },
    {
      // The counter names of Cisco Tomcat JVM are the lab's reading (not confirmed by a public document).
      name: 'Cisco Tomcat JVM',
      counters: [
        {
          name: 'KBytesMemoryFree',
          kind: 'instant',
          description: 'The free dynamic memory of the Tomcat JVM, in kilobytes.',
          value: () => 310_000,
        },
        {
          name: 'KBytesMemoryMax',
          kind: 'instant',
          description: 'The most dynamic memory the Tomcat JVM may use, in kilobytes.',
          value: () => 1_048_576,
        },
        {
          name: 'KBytesMemoryTotal',
          kind: 'instant',
          description: 'The dynamic memory the Tomcat JVM holds, in kilobytes.',
          value: () => 720_000,
        },
      ],
    },
  ];
}

/** Devices registered to `node` as RIS reports them, whose names `kind` matches. */
function registered(view: ServiceabilityView, node: string, kind: RegExp): number {
  let n = 0;
  for (const [name, regs] of view.ris?.registrations ?? []) {
    if (!kind.test(name)) continue;
    if (regs.some((r) => r.node.toLowerCase() === node.toLowerCase() && r.status === 'Registered')) n++;
  }
  return n;
}

/** Hardware phones are SEP devices; Jabber and other soft clients (CSF, BOT, TCT, TAB) are other stations. */
const HARDWARE_PHONE = /^SEP/;
const OTHER_STATION = /^(CSF|BOT|TCT|TAB)/;

/** Cisco CallManager and Cisco SIP Stack: CUCM nodes only. */
function callManager(view: ServiceabilityView, node: string): LabObject[] {
  const phones = registered(view, node, HARDWARE_PHONE);
  return [
    {
      // Cisco CallManager\CallsActive, \CallsAttempted, \CallsCompleted, \RegisteredHardwarePhones and
      // \RegisteredOtherStationDevices: Cisco Unified Real-Time Monitoring Tool Administration Guide,
      // Release 12.5(1)SU4, "Performance Counters and Alerts", Cisco CallManager (the descriptions are
      // the lab's own words).
      name: 'Cisco CallManager',
      counters: [
        {
          name: 'RegisteredHardwarePhones',
          kind: 'instant',
          description: 'The number of Cisco hardware IP phones registered to this node.',
          value: () => phones,
        },
        {
          name: 'RegisteredOtherStationDevices',
          kind: 'instant',
          description:
            'The number of station devices other than Cisco hardware IP phones (soft clients) registered to this node.',
          value: () => registered(view, node, OTHER_STATION),
        },
        {
          name: 'CallsActive',
          kind: 'instant',
          description: 'The number of voice or video streaming connections in use on this node.',
          value: () => Math.floor(phones / 3),
        },
        {
          name: 'CallsAttempted',
          kind: 'instant',
          description: 'The number of calls attempted on this node since the service started.',
          value: () => 1_200 + phones * 40,
        },
        {
          name: 'CallsCompleted',
          kind: 'instant',
          description:
            'The number of calls connected and then disconnected on this node since the service started.',
          value: () => 1_150 + phones * 38,
        },
      ],
    },
    {
      // Counter names of Cisco SIP Stack are the lab's reading (not confirmed by a public document).
      name: 'Cisco SIP Stack',
      counters: [
        {
          name: 'InviteIns',
          kind: 'instant',
          description: 'The number of INVITE requests received since the service started.',
          value: () => 800 + phones * 20,
        },
        {
          name: 'InviteOuts',
          kind: 'instant',
          description: 'The number of INVITE requests sent since the service started.',
          value: () => 780 + phones * 19,
        },
        {
          name: 'StatusCode4xxIns',
          kind: 'instant',
          description: 'The number of 4xx responses received since the service started.',
          value: () => 12,
        },
      ],
    },
  ];
}

/**
 * IM&P: counters the IM and Presence monitoring guide lists ("Monitoring Cisco Unified Communications
 * Manager IM and Presence", 9.0(1), chapter "Performance counters": https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/im_presence/monitoring_guide/9_0_1/CUCM_BK_M2F290D8_00_monitoring-cucm-presence-guide-90/CUCM_BK_M2F290D8_00_monitoring-cucm-presence-guide-90_chapter_011.html).
 */
function presence(): LabObject[] {
  return [
    {
      name: 'Cisco XCP CM',
      counters: [
        {
          name: 'ConnectedSockets',
          kind: 'instant',
          description: 'The number of connected XMPP clients.',
          value: () => 42,
        },
      ],
    },
    {
      name: 'Cisco Presence Engine',
      counters: [
        {
          name: 'ActiveJsmSessions',
          kind: 'instant',
          description: 'The number of active JSM sessions.',
          value: () => 40,
        },
      ],
    },
    {
      name: 'Cisco XCP JSM',
      counters: [
        {
          name: 'JsmIMSessions',
          kind: 'instant',
          description: 'The number of instant message sessions.',
          value: () => 17,
        },
      ],
    },
  ];
}

/** Every object `node` reports (the publisher answers for every node of its cluster). */
export function objectsOf(view: ServiceabilityView, node: string): LabObject[] {
  return [
    ...platform(view),
    ...(view.product === 'cucm' ? callManager(view, node) : []),
    ...(view.product === 'imp' ? presence() : []),
  ];
}
