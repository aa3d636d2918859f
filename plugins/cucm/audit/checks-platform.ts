// Platform hardening the CLI shows: Enhanced Security Mode on top of FIPS, idle session timeouts of
// the web applications and the CLI, and SNMP (v1/v2c communities, v3 users).
import { cannotJudge, outputOf, type Check, type EvidenceResult } from '../../_shared/audit/checklist.ts';
import { E, excerpt } from './evidence.ts';
import { EH } from './evidence-hardening.ts';
import {
  CLI_SHOW_1251SU3,
  CLI_UTILS_1251SU5,
  CUIC_CLI_1262,
  FIPS_14SU2,
  FIPS_ESM_1251SU6,
} from './sources-hardening.ts';
import { VOS_SNMP_COMMUNITY_SCRIPT, VOS_WEBAPP_SESSION_TIMEOUT } from '../../_shared/audit/vos-references.ts';
import { fipsState } from '../../_shared/audit/vos-verdicts.ts';

type Results = Record<string, EvidenceResult>;

/** Idle timeouts longer than this many minutes are findings (the default is 30). */
export const MAX_IDLE_MINUTES = 30;

const OUTPUT_UNVERIFIED = (command: string, reads: string): string =>
  `the command ${command} is documented, its output lines are not: the check reads ${reads}, as the lab prints it.`;

function timeout(r: Results, id: 'webTimeout' | 'cliTimeout', what: string): string | undefined {
  const out = outputOf(r[id]);
  const minutes = /(\d+)\s*min/i.exec(out)?.[1];
  if (minutes === undefined) return cannotJudge(`unrecognised answer: ${excerpt(out)}`);
  return Number(minutes) > MAX_IDLE_MINUTES ? `${what} end after ${minutes} idle minutes` : undefined;
}

/** SNMPv3 users (from `utils snmp config 3 user list`) and their protocols. */
export function snmpUsers(out: string): { name: string; auth: string; priv: string }[] {
  const users: { name: string; auth: string; priv: string }[] = [];
  for (const line of out.split('\n')) {
    const m = /^\s*(User\s*name|Authentication Protocol|Privacy Protocol)\s*[:=]\s*(.*)$/i.exec(line);
    if (!m) continue;
    const key = (m[1] ?? '').toLowerCase();
    const value = (m[2] ?? '').trim();
    if (key.startsWith('user')) users.push({ name: value, auth: '', priv: '' });
    else if (users.length > 0) {
      const u = users[users.length - 1] as { name: string; auth: string; priv: string };
      if (key.startsWith('auth')) u.auth = value;
      else u.priv = value;
    }
  }
  return users;
}

export const PLATFORM_CHECKS: Check[] = [
  {
    id: 'CUCM-FIPS-02',
    topic: 'fips',
    title: 'FIPS mode without Enhanced Security Mode',
    rationale:
      'Enhanced Security Mode runs on a FIPS node and adds the stricter credential policy (14-character passwords, history, ageing), contact search authentication and TCP remote audit logging.',
    evidence: [E.fips, EH.esm],
    condition:
      'utils EnhancedSecurityMode status does not report it enabled (FIPS itself is CUCM-FIPS-01; the observation says whether the node is in FIPS mode)',
    evaluate(r) {
      const out = outputOf(r.esm);
      const state = fipsState(outputOf(r.fips));
      const fips = state ? `node in ${state === 'on' ? 'FIPS' : 'NON-FIPS'} mode` : 'FIPS state unknown';
      if (/non-EnhancedSecurityMode|\bdisabled\b/i.test(out))
        return `Enhanced Security Mode is disabled (${fips})`;
      return /operating in EnhancedSecurityMode|\benabled\b/i.test(out)
        ? undefined
        : cannotJudge(`unrecognised answer: ${excerpt(out)}`);
    },
    severity: 'low',
    remediation:
      'With FIPS on every node, run `utils EnhancedSecurityMode enable` node by node (publisher first, never all at once), then change administrator passwords to meet the 14-character policy.',
    references: [FIPS_ESM_1251SU6, FIPS_14SU2, CLI_UTILS_1251SU5],
    unverified: OUTPUT_UNVERIFIED(
      'utils EnhancedSecurityMode status',
      '"operating in EnhancedSecurityMode" / "non-EnhancedSecurityMode" (the CLI reference\'s description of the answer) or the words enabled / disabled',
    ),
  },
  {
    id: 'CUCM-OS-04',
    topic: 'platform',
    title: 'Long idle timeout for web sessions',
    rationale:
      'An administration session left open on an unattended browser stays usable until it times out; the default 30 minutes is the most a hardened node allows.',
    evidence: [EH.webTimeout],
    condition: `show webapp session timeout reports more than ${MAX_IDLE_MINUTES} minutes`,
    evaluate: (r) => timeout(r, 'webTimeout', 'web application sessions'),
    severity: 'medium',
    remediation:
      'Run `set webapp session timeout 15` (5 to 30 minutes) on every node and restart Cisco Tomcat in a quiet hour.',
    references: [CUIC_CLI_1262, VOS_WEBAPP_SESSION_TIMEOUT],
    unverified: OUTPUT_UNVERIFIED(
      'show webapp session timeout',
      'the number before "min" (the platform words the current value "The current session-timeout used for web sessions and applications is 30 minutes." in the set command\'s example, which this reading handles); the command is documented for the VOS of Unified CCX, Unified Intelligence Center and Emergency Responder, the CUCM CLI reference excerpt seen does not show it',
    ),
  },
  {
    id: 'CUCM-OS-05',
    topic: 'platform',
    title: 'Long idle timeout for CLI sessions',
    rationale:
      'The OS administrator’s CLI session controls the appliance; one left open stays usable for as long as the timeout allows.',
    evidence: [EH.cliTimeout],
    condition: `show cli session timeout reports more than ${MAX_IDLE_MINUTES} minutes`,
    evaluate: (r) => timeout(r, 'cliTimeout', 'CLI sessions'),
    severity: 'medium',
    remediation: 'Run `set cli session timeout 15` on every node (new sessions use it at once).',
    references: [CLI_SHOW_1251SU3, CUIC_CLI_1262],
    unverified: OUTPUT_UNVERIFIED('show cli session timeout', 'the number before "min"'),
  },
  {
    id: 'CUCM-SNMP-01',
    topic: 'snmp',
    title: 'SNMP v1/v2c community strings configured',
    rationale:
      'SNMP v1 and v2c authenticate with a community string sent in clear in every request; anyone who sees one can read (or with write access, change) what the agent exposes.',
    evidence: [EH.snmpCommunities],
    condition: 'utils snmp config 1/2c community-string list lists a community string',
    evaluate(r) {
      const out = outputOf(r.snmpCommunities);
      const count = out.split('\n').filter((l) => /^\s*Community\s*String\s*[:=]/i.test(l)).length;
      if (count > 0) return `${count} SNMP v1/v2c community string(s) configured (names not repeated here)`;
      return /no community|not configured|there are no/i.test(out)
        ? undefined
        : cannotJudge(
            `unrecognised answer: ${excerpt(
              out.replace(/\S+/g, (w) => (w.length > 3 ? '*' : w)),
              60,
            )}`,
          );
    },
    severity: 'medium',
    remediation:
      'Delete the v1/v2c community strings (`utils snmp config 1/2c community-string delete`) and monitor the node with SNMPv3 users (SHA and AES) restricted to the management stations.',
    references: [CUIC_CLI_1262, VOS_SNMP_COMMUNITY_SCRIPT],
    unverified: OUTPUT_UNVERIFIED(
      'utils snmp config 1/2c community-string list',
      'lines "Community String = ..."; a public onboarding script shows that the list prints the community strings added on Unified CM, Unity Connection and IM and Presence, not how it lays them out',
    ),
  },
  {
    id: 'CUCM-SNMP-02',
    topic: 'snmp',
    title: 'SNMPv3 user without strong authentication and privacy',
    rationale:
      'An SNMPv3 user without privacy sends every answer in clear, and MD5 or DES are not allowed in FIPS mode; SHA authentication with AES privacy is the baseline.',
    evidence: [EH.snmpUsers],
    condition:
      'utils snmp config 3 user list shows a user whose authentication is not SHA or whose privacy is not AES',
    evaluate(r) {
      const out = outputOf(r.snmpUsers);
      const users = snmpUsers(out);
      if (users.length === 0)
        return /there are no|no v3 user|not configured/i.test(out)
          ? undefined
          : cannotJudge(`unrecognised answer: ${excerpt(out)}`);
      const weak = users
        .filter((u) => !/^SHA/i.test(u.auth) || !/^AES/i.test(u.priv))
        .map((u) => `${u.name} (authentication ${u.auth || 'none'}, privacy ${u.priv || 'none'})`);
      return weak.length > 0 ? `SNMPv3 users: ${weak.join(', ')}` : undefined;
    },
    severity: 'medium',
    remediation:
      'Update each SNMPv3 user to SHA authentication and AES128 privacy (`utils snmp config 3 user update`), as FIPS mode requires.',
    references: [CUIC_CLI_1262, FIPS_ESM_1251SU6],
    unverified: OUTPUT_UNVERIFIED(
      'utils snmp config 3 user list',
      'lines "Username", "Authentication Protocol" and "Privacy Protocol"',
    ),
  },
];
