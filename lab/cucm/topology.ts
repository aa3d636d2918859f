/** The simulated cluster: node names, versions and the demo phones every other module refers to. */

export const CUCM_PUBLISHER = 'cucm-pub';
export const CUCM_SUBSCRIBER = 'cucm-sub1';
export const IMP_NODE = 'imp-pub';
export const CUCM_VERSION = '15.0.1.11900(40)';
/** The enterprise parameter RisPort reads its per-minute limit from (lab name). */
export const RIS_RATE_PARAMETER = 'RisMaxQueriesPerMinute';

export interface DemoPhone {
  name: string;
  model: string;
  protocol: 'SIP' | 'SCCP';
  dn: string;
  owner?: string;
  description: string;
}

/** The phones that get their own web listener (screenshots). */
export const DEMO_PHONES: readonly DemoPhone[] = [
  {
    name: 'SEP0A1B2C3D4E01',
    model: 'Cisco 8865',
    protocol: 'SIP',
    dn: '1001',
    owner: 'jsmith',
    description: 'John Smith - 8865',
  },
  {
    name: 'SEP0A1B2C3D4E02',
    model: 'Cisco 7965',
    protocol: 'SCCP',
    dn: '1002',
    owner: 'jsmith',
    description: 'John Smith - 7965',
  },
  {
    name: 'SEP0A1B2C3D4E03',
    model: 'Cisco 8845',
    protocol: 'SIP',
    dn: '1003',
    owner: 'mlee',
    description: 'Mary Lee - 8845',
  },
  { name: 'SEP0A1B2C3D4E04', model: 'Cisco 7841', protocol: 'SIP', dn: '1004', description: 'Lobby phone' },
];

export function extraPhoneName(i: number): string {
  return `SEPF0${i.toString(16).toUpperCase().padStart(10, '0')}`;
}

/** The second cluster, still on 14.0 (a region not upgraded yet): its publisher serves AXL 11.0 to 14.0. */
export const LEGACY_PUBLISHER = 'cucm14-pub';
export const LEGACY_SUBSCRIBER = 'cucm14-sub1';
export const LEGACY_VERSION = '14.0.1.13900(155)';
