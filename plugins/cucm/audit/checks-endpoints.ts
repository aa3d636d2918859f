// Phone hardening: the product-specific settings of common phone profiles that open a phone to its
// neighbours on the network (web server, Settings menu, PC port, span to PC port, gratuitous ARP).
import { rowsOf, type Check, type EvidenceResult, type Reference } from '../../_shared/audit/checklist.ts';
import { incomplete, text } from './evidence.ts';
import { EH, PHONE_SETTINGS, weakPattern, type PhoneSetting } from './evidence-hardening.ts';
import { CUCM_CONFIG_TRACKER } from './references.ts';
import { AXL_WIKI_DEVICE_XML, DATA_DICTIONARY_712, PHONE_HARDENING } from './sources-hardening.ts';

type Results = Record<string, EvidenceResult>;

/**
 * Phone-specific overrides are not read: since Unified CM 8.0 a phone's product-specific (vendor config)
 * XML is no longer in the device table but split into separate tables, read one device at a time with the
 * stored procedure dbreaddevicexml(pkid) (AXL wiki FAQ) or AXL getPhone vendorConfig; no public source
 * names those tables, so no single query could read every phone's overrides.
 */
const SCOPE =
  "the common phone profiles' settings are judged; phone-specific overrides are not read (since Unified CM 8.0 a node keeps each phone's vendor config XML in separate tables, read one phone at a time with dbreaddevicexml(pkid) or AXL getPhone vendorConfig)";

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

const REFERENCES = [
  PHONE_HARDENING,
  DATA_DICTIONARY_712,
  CUCM_CONFIG_TRACKER,
  AXL_WIKI_DEVICE_XML,
  PHONE_CONFIG_FILE,
];

/**
 * The settings whose stored values no public text explains (the table and columns read are confirmed;
 * the AXL FAQ's vendor config example shows pcPort and garp by name, not spanToPCPort).
 */
const VALUES_UNVERIFIED: Readonly<Partial<Record<PhoneSetting['element'], string>>> = {
  pcPort:
    "what the stored values of pcPort mean (0 = enabled, 1 = disabled) is not confirmed: the element is in the AXL FAQ's vendor config example, but the phone configuration file cited explains only webAccess and settingsAccess",
  garp: "what the stored values of garp mean (0 = enabled, 1 = disabled) is not confirmed: the element is in the AXL FAQ's vendor config example, but the phone configuration file cited explains only webAccess and settingsAccess",
  spanToPCPort:
    "what the stored values of spanToPCPort mean (0 = enabled, 1 = disabled) is not confirmed, and the element is not in the AXL FAQ's vendor config example (the phone configuration file cited explains only webAccess and settingsAccess)",
};

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
    ...(VALUES_UNVERIFIED[spec.element] ? { unverified: VALUES_UNVERIFIED[spec.element] } : {}),
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
