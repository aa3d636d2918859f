// The public sources of the PerfMon names the health items and the troubleshooting workflow read.
import type { Reference } from '../audit/checklist.ts';

/**
 * Cisco's list of the PerfMon objects and counters every VOS node reports (System Counters: Memory,
 * Partition, Processor) and those of Unified CM (Cisco CallManager), with what each counts.
 */
export function rtmtCounters(section: string, confirms: string[]): Reference {
  return {
    document: 'Cisco Unified Real-Time Monitoring Tool Administration Guide, Release 12.5(1)SU4',
    release: '12.5(1)SU4',
    section: `Performance Counters and Alerts: ${section}`,
    url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/service/12_5_1SU4/rtmt/cucm_b_cisco-unified-real-time-monitoring-1251su4/cucm_b_cisco-unified-rtmt-administration-1251su2_appendix_01001.html',
    confirms,
  };
}

/** The Cisco CallManager counters of registration and call activity both prompts read. */
export const REGISTRATION_COUNTERS = [
  'RegisteredHardwarePhones',
  'RegisteredOtherStationDevices',
  'CallsActive',
];

export const CALLMANAGER_COUNTERS: Reference = rtmtCounters('Cisco CallManager', [
  'Cisco CallManager',
  ...REGISTRATION_COUNTERS,
]);

/**
 * Control Center's service names as a public Control Center client reads them from CUCM 10.x nodes
 * (servicelist.txt), and the reasons it decodes (serviceabilitytools.pl, `reasondictionary`).
 */
export const SERVICE_NAMES: Reference = {
  document: 'phnowicki/serviceabilitytools, servicelists/servicelist.txt and serviceabilitytools.pl',
  release: 'CUCM and IM and Presence 10.x; commit 078520b',
  section: 'the service list a Control Center client reads; its reason-code dictionary',
  url: 'https://github.com/phnowicki/serviceabilitytools/blob/078520bbdf642433ce086bcaf9f57dc17ea02671/servicelists/servicelist.txt',
  confirms: ['Cisco CallManager', 'Cisco Tftp', 'Service Not Activated', 'Commanded Out of Service'],
};
