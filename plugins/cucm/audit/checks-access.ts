// Who may authenticate how, and who holds the two rights that reach every phone or the whole
// configuration: LDAP over TLS, SAML single sign-on, CTI control of all devices, AXL API access.
import {
  cannotJudge,
  outputOf,
  rowsOf,
  type Check,
  type EvidenceResult,
} from '../../_shared/audit/checklist.ts';
import { E, excerpt, incomplete, isTrue, text } from './evidence.ts';
import { EH, HOLDER_GROUPS } from './evidence-hardening.ts';
import {
  CISCOCUCMAPI_SQL,
  CUCM_CONFIG_TRACKER,
  CUCM_SQL_EXAMPLES,
  STANDARD_ROLES_AND_GROUPS,
  TINYCUCM_SQL,
} from './references.ts';
import {
  AXL_FAQ,
  AXL_SCHEMA_15,
  DATA_DICTIONARY_611,
  JTAPI_SAMPLES,
  SSO_CONFIGURE,
  SSO_TROUBLESHOOT,
} from './sources-hardening.ts';

type Results = Record<string, EvidenceResult>;

function list(items: string[], max = 6): string {
  return items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');
}

/** The first object under `key` anywhere in an AXL answer (`return.ldapAuthentication`). */
function find(v: unknown, key: string): Record<string, unknown> | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (o[key] && typeof o[key] === 'object') return o[key] as Record<string, unknown>;
  for (const child of Object.values(o)) {
    const found = find(child, key);
    if (found) return found;
  }
  return undefined;
}

const asList = (v: unknown): Record<string, unknown>[] =>
  (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]) as Record<string, unknown>[];

/** LDAP authentication servers that do not use TLS, when end users authenticate against LDAP. */
export function judgeLdapAuthentication(r: Results): string | undefined {
  const answer = r.ldapAuthentication;
  if (!answer?.ok) return undefined;
  const auth = find(answer.data.result, 'ldapAuthentication');
  if (!auth) return cannotJudge(`unrecognised answer: ${excerpt(JSON.stringify(answer.data.result ?? {}))}`);
  if (!isTrue(auth.authenticateEndUsers)) return undefined;
  const servers = asList((auth.servers as Record<string, unknown> | undefined)?.server);
  if (servers.length === 0) return 'LDAP authentication is on but names no server';
  const clear = servers
    .filter((s) => !isTrue(s.sslEnabled))
    .map((s) => `${text(s.hostName) || '?'}:${text(s.ldapPortNumber) || '389'}`);
  return clear.length > 0 ? `end users authenticate over LDAP without TLS to ${list(clear)}` : undefined;
}

function holders(r: Results, group: string): string[] {
  const g = group.toLowerCase();
  const endUsers = rowsOf(r.endUserHolders)
    .filter((m) => text(m.groupname).toLowerCase() === g)
    .map((m) => `end user ${text(m.userid)}`);
  const groupPkids = new Set(
    rowsOf(r.groups)
      .filter((x) => text(x.name).toLowerCase() === g)
      .map((x) => text(x.pkid)),
  );
  const members = new Set(
    rowsOf(r.appUserGroups)
      .filter((m) => groupPkids.has(text(m.fkdirgroup)))
      .map((m) => text(m.fkapplicationuser)),
  );
  const appUsers = rowsOf(r.appUsers)
    .filter((u) => members.has(text(u.pkid)) && !isTrue(u.isstandard))
    .map((u) => `application user ${text(u.name)}`);
  return [...endUsers, ...appUsers];
}

/** The sources of the membership tables and columns the holder checks read. */
const MEMBERSHIP_REFERENCES = [
  STANDARD_ROLES_AND_GROUPS,
  DATA_DICTIONARY_611,
  CISCOCUCMAPI_SQL,
  TINYCUCM_SQL,
  CUCM_CONFIG_TRACKER,
  CUCM_SQL_EXAMPLES,
];

export const ACCESS_CHECKS: Check[] = [
  {
    id: 'CUCM-LDAP-01',
    topic: 'authentication',
    title: 'LDAP authentication without TLS',
    rationale:
      "With LDAP authentication each end-user login sends the user's directory password to the LDAP server; without TLS it crosses the network in clear.",
    evidence: [EH.ldapAuthentication],
    condition: 'getLdapAuthentication has authenticateEndUsers true and a server with sslEnabled false',
    evaluate: judgeLdapAuthentication,
    severity: 'high',
    remediation:
      'Tick "Use TLS" for every LDAP authentication server (port 636 or 3269), upload the directory CA to tomcat-trust, and restart Cisco Tomcat.',
    references: [AXL_SCHEMA_15],
  },
  {
    id: 'CUCM-LDAP-02',
    topic: 'authentication',
    title: 'LDAP directory synchronised without TLS',
    rationale:
      'The synchronisation agreement binds with a service account whose password, and the whole user directory, cross the network in clear unless TLS is used.',
    evidence: [EH.ldapDirectoryServers],
    condition: 'an LDAP directory server has sslenabled false',
    evaluate(r) {
      const cut = incomplete(r.ldapDirectoryServers);
      if (cut) return cut;
      const clear = rowsOf(r.ldapDirectoryServers)
        .filter((h) => !isTrue(h.sslenabled))
        .map((h) => `${text(h.name)} -> ${text(h.hostname)}:${text(h.portnumber) || '389'}`);
      return clear.length > 0 ? `directory synchronised without TLS: ${list(clear)}` : undefined;
    },
    severity: 'medium',
    remediation:
      'Tick "Use TLS" on every server of each LDAP directory (port 636 or 3269) after uploading the directory CA to tomcat-trust.',
    references: [AXL_SCHEMA_15, DATA_DICTIONARY_611],
    unverified:
      'directorypluginhost is a table of the CUCM data dictionary, but its columns (fkdirectorypluginconfig, hostname, portnumber, sslenabled) have no public source; AXL getLdapDirectory (servers/server/sslEnabled, confirmed by the AXL 15 schema) gives the same per directory, one call each.',
  },
  {
    id: 'CUCM-SSO-01',
    topic: 'authentication',
    title: 'SAML single sign-on not enabled',
    rationale:
      'Without single sign-on every administration page keeps its own password login, outside the organisation’s identity provider, multi-factor authentication and central lockout.',
    evidence: [EH.sso],
    condition: 'utils sso status does not report SAML SSO enabled',
    evaluate(r) {
      const out = outputOf(r.sso);
      const status = /SSO Status\s*[:=]\s*(.+)$/im.exec(out)?.[1]?.trim();
      if (status === undefined) return cannotJudge(`unrecognised answer: ${excerpt(out)}`);
      return /enabled/i.test(status) && !/disabled/i.test(status) ? undefined : `SAML SSO status: ${status}`;
    },
    severity: 'low',
    remediation:
      'Enable SAML SSO (System > SAML Single Sign-On) against the organisation’s identity provider, test it with an LDAP-synchronised administrator, and keep the recovery URL for emergencies only.',
    // Only the enabled line is published; any other status is reported, so a disabled node whose
    // wording differs is still a finding, never a silent pass.
    references: [SSO_CONFIGURE, SSO_TROUBLESHOOT],
  },
  {
    id: 'CUCM-PRIV-03',
    topic: 'privileged-accounts',
    title: `Users in ${HOLDER_GROUPS.cti}`,
    rationale:
      'This group lets a CTI application monitor and control every phone of the cluster (dial out, answer, barge in); only the contact-centre and recording integrations that need it should hold it.',
    evidence: [EH.endUserHolders, E.appUsers, E.groups, E.appUserGroups],
    condition: `an end user, or an application user that is not built in, belongs to ${HOLDER_GROUPS.cti}`,
    evaluate(r) {
      const cut = incomplete(r.endUserHolders, r.appUserGroups);
      if (cut) return cut;
      const who = holders(r, HOLDER_GROUPS.cti);
      return who.length > 0 ? `${HOLDER_GROUPS.cti}: ${list(who)}` : undefined;
    },
    severity: 'high',
    remediation:
      'Remove users from the group; give each CTI application its own application user with only Standard CTI Enabled and the devices it must control associated to it.',
    references: [JTAPI_SAMPLES, ...MEMBERSHIP_REFERENCES],
  },
  {
    id: 'CUCM-PRIV-04',
    topic: 'privileged-accounts',
    title: 'End users with AXL API access',
    rationale:
      "AXL reads and changes the whole configuration. A person's own account with AXL rights is used from scripts and laptops, and its LDAP password opens the API.",
    evidence: [EH.endUserHolders],
    condition: `an end user belongs to ${HOLDER_GROUPS.axl}`,
    evaluate(r) {
      const cut = incomplete(r.endUserHolders);
      if (cut) return cut;
      const g = HOLDER_GROUPS.axl.toLowerCase();
      const who = rowsOf(r.endUserHolders)
        .filter((m) => text(m.groupname).toLowerCase() === g)
        .map((m) => text(m.userid));
      return who.length > 0 ? `end users with AXL access: ${list(who)}` : undefined;
    },
    severity: 'high',
    remediation:
      'Remove end users from AXL access groups; give each integration an application user in a custom group with the AXL role and nothing more.',
    references: [AXL_FAQ, ...MEMBERSHIP_REFERENCES],
    unverified:
      "the tables and columns read are confirmed, the group name is not one: Cisco's table of standard roles and groups lists Standard AXL API Access as a role whose standard group is Standard CCM Super Users, so this check sees only a custom group of that name, and misses end users holding the role through Standard CCM Super Users or another group (functionroledirgroupmap, not read).",
  },
];
