// Phone hardening: the product-specific settings of common phone profiles that open a phone to its
// neighbours on the network (web server, Settings menu, PC port, span to PC port, gratuitous ARP).
import { rowsOf, type Check, type EvidenceResult, type Reference } from '../../_shared/audit/checklist.ts';
import { incomplete, text } from './evidence.ts';
import { EH, PHONE_SETTINGS, weakPattern, type PhoneSetting } from './evidence-hardening.ts';
import { CUCM_CONFIG_TRACKER } from './references.ts';
import { DATA_DICTIONARY_712, PHONE_HARDENING } from './sources-hardening.ts';

type Results = Record<string, EvidenceResult>;

/**
 * Phone-specific overrides are not read: a node keeps a phone's product-specific XML per device, read one
 * phone at a time (AXL getPhone vendorConfig), and no table a single query could count them from is
 * confirmed (the device table has no xml column in a public `select *` of it).
 */
const SCOPE =
  "the common phone profiles' settings are judged; phone-specific overrides are not read (a node keeps them per device, readable one phone at a time through AXL getPhone vendorConfig)";

function list(items: string[], max = 6): string {
  return items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');
}

/** The observation for one setting: the common phone profiles carrying the weak value. */
export function judgePhoneSetting(r: Results, s: PhoneSetting): string | undefined {
  const cut = incomplete(r.commonPhoneProfiles);
  if (cut) return cut;
  const profiles = rowsOf(r.commonPhoneProfiles)
    .filter((p) => text(p.xml).includes(weakPattern(s)))
    .map((p) => text(p.name));
  return profiles.length > 0 ? `${s.label} on common phone profile ${list(profiles)}` : undefined;
}

const setting = (element: PhoneSetting['element']): PhoneSetting =>
  PHONE_SETTINGS.find((s) => s.element === element) as PhoneSetting;

/** A phone configuration file (SEP<MAC>.cnf.xml) with the meaning of its access elements. */
const PHONE_CONFIG_FILE: Reference = {
  document:
    'msergiy87/phone_cisco_6921 README (SEP.cnf.xml for a Cisco CP-6921, the file CUCM serves by TFTP)',
  release: 'SIP69xx firmware (third-party call control)',
  section: '6) Configure access',
  url: 'https://github.com/msergiy87/phone_cisco_6921/blob/34c11b7de8f992447f19d6fe882537c31e33a81f/README.md',
  confirms: [
    'webAccess (1 = disabled, 0 = enabled)',
    'settingsAccess (0 = disabled, 1 = enabled, 2 = restricted)',
  ],
};

const REFERENCES = [PHONE_HARDENING, DATA_DICTIONARY_712, CUCM_CONFIG_TRACKER, PHONE_CONFIG_FILE];

/** The settings whose stored values no public text explains (the names and tables are confirmed). */
const VALUES_UNVERIFIED: ReadonlySet<PhoneSetting['element']> = new Set(['pcPort', 'spanToPCPort', 'garp']);

function phoneCheck(
  spec: Pick<Check, 'id' | 'title' | 'rationale' | 'severity' | 'remediation'> & {
    element: PhoneSetting['element'];
    condition: string;
  },
): Check {
  const s = setting(spec.element);
  return {
    id: spec.id,
    topic: 'phones',
    title: spec.title,
    rationale: spec.rationale,
    evidence: [EH.commonPhoneProfiles],
    condition: `${spec.condition}; ${SCOPE}`,
    evaluate: (r) => judgePhoneSetting(r, s),
    severity: spec.severity,
    remediation: spec.remediation,
    references: REFERENCES,
    ...(VALUES_UNVERIFIED.has(spec.element)
      ? {
          unverified: `the stored values of ${spec.element} (0 = enabled, 1 = disabled) are not confirmed by a public source (the phone configuration file cited explains only webAccess and settingsAccess); the table commonphoneconfigxml and the columns read are confirmed`,
        }
      : {}),
  };
}

export const ENDPOINT_CHECKS: Check[] = [
  phoneCheck({
    id: 'CUCM-PHONE-03',
    element: 'webAccess',
    title: 'Phone web server enabled',
    rationale:
      "A phone's web pages show its configuration, network neighbours and logs to anyone who can reach it, and help an attacker map the voice network.",
    condition: `a common phone profile has ${weakPattern(setting('webAccess'))} (web access enabled)`,
    severity: 'medium',
    remediation:
      'Set Web Access to Disabled in the common phone profiles, and check the phones that override it (bulk administration for many phones); enable it only temporarily for troubleshooting.',
  }),
  phoneCheck({
    id: 'CUCM-PHONE-04',
    element: 'settingsAccess',
    title: 'Phone Settings menu fully open',
    rationale:
      'With full access to the Settings menu, anyone at the phone can change its network configuration and point it at another server.',
    condition: `a common phone profile has ${weakPattern(setting('settingsAccess'))} (Settings Access enabled)`,
    severity: 'low',
    remediation:
      'Set Settings Access to Restricted (contrast and ringer only) or Disabled in the common phone profiles and on phones that override it.',
  }),
  phoneCheck({
    id: 'CUCM-PHONE-05',
    element: 'pcPort',
    title: 'Phone PC port enabled',
    rationale:
      'An enabled PC port gives a network connection to whatever is plugged into the phone; in lobbies, meeting rooms and other public places it is an open door to the voice network.',
    condition: `a common phone profile has ${weakPattern(setting('pcPort'))} (PC Port enabled)`,
    severity: 'low',
    remediation:
      'Disable the PC port on phones where no computer is attached (lobby, meeting-room, shared-area phones) and in the common phone profile they use.',
  }),
  phoneCheck({
    id: 'CUCM-PHONE-06',
    element: 'spanToPCPort',
    title: 'Phone traffic spanned to the PC port',
    rationale:
      'Span to PC Port copies the frames the phone sends and receives to the attached computer, where they can be captured and the calls replayed.',
    condition: `a common phone profile has ${weakPattern(setting('spanToPCPort'))} (Span to PC Port enabled)`,
    severity: 'medium',
    remediation:
      'Disable Span to PC Port everywhere except on phones being captured for troubleshooting, and turn it off again afterwards.',
  }),
  phoneCheck({
    id: 'CUCM-PHONE-07',
    element: 'garp',
    title: 'Phones accept gratuitous ARP',
    rationale:
      "Gratuitous ARP lets any host on the voice VLAN claim to be the default router and put itself in the phone's media path.",
    condition: `a common phone profile has ${weakPattern(setting('garp'))} (Gratuitous ARP enabled)`,
    severity: 'medium',
    remediation:
      'Set Gratuitous ARP to Disabled in the common phone profiles and on the phones that override it; disabling it does not stop the phone finding its default router.',
  }),
];
