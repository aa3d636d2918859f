// Who may authenticate how, and who holds the two roles that reach every phone or the whole
// configuration: LDAP over TLS, SAML single sign-on, CTI control of all devices, AXL API access.
import {
  cannotJudge,
  outputOf,
  rowsOf,
  type Check,
  type EvidenceResult,
} from '../../_shared/audit/checklist.ts';
import { CUCM_USER_GROUP_SQL } from '../../_shared/audit/vos-references.ts';
import { E, excerpt, incomplete, isTrue, text } from './evidence.ts';
import { EH, HOLDER_ROLES } from './evidence-hardening.ts';
import { appUsersHolding, describeHolder, endUsersHolding, groupsCarrying } from './role-holders.ts';
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

/** The sources of the roles, groups and membership tables and columns the holder checks read. */
const MEMBERSHIP_REFERENCES = [
  STANDARD_ROLES_AND_GROUPS,
  CUCM_USER_GROUP_SQL,
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
    title: `Users holding ${HOLDER_ROLES.cti}`,
    rationale:
      'This role lets a CTI application monitor and control every phone of the cluster (dial out, answer, barge in); only the contact-centre and recording integrations that need it should hold it.',
    evidence: [EH.roleGroups, EH.endUserHolders, E.appUsers, E.appUserGroups],
    condition: `an end user, or an application user that is not built in, holds the role ${HOLDER_ROLES.cti} through any access control group (the standard group of that name or a custom group carrying the role)`,
    evaluate(r) {
      const cut = incomplete(r.endUserHolders, r.appUserGroups);
      if (cut) return cut;
      const groups = groupsCarrying(r, HOLDER_ROLES.cti);
      if (typeof groups === 'string') return groups;
      const who = [
        ...endUsersHolding(r, HOLDER_ROLES.cti).map((h) => describeHolder('end user', h)),
        ...appUsersHolding(r, groups)
          .filter((h) => !h.standard)
          .map((h) => describeHolder('application user', h)),
      ];
      return who.length > 0 ? `${HOLDER_ROLES.cti}: ${list(who)}` : undefined;
    },
    severity: 'high',
    remediation:
      'Remove users from every group carrying the role; give each CTI application its own application user in Standard CTI Enabled only, with the devices it must control associated to it.',
    references: [JTAPI_SAMPLES, ...MEMBERSHIP_REFERENCES],
  },
  {
    id: 'CUCM-PRIV-04',
    topic: 'privileged-accounts',
    title: 'End users with AXL API access',
    rationale:
      "AXL reads and changes the whole configuration. A person's own account with AXL rights is used from scripts and laptops, and its LDAP password opens the API.",
    evidence: [EH.roleGroups, EH.endUserHolders],
    // Application users are the integrations' accounts AXL is meant for: only end users are judged.
    condition: `an end user holds the role ${HOLDER_ROLES.axl} through any access control group (Standard CCM Super Users, its standard group, or a custom group carrying it); application users are not judged here`,
    evaluate(r) {
      const cut = incomplete(r.endUserHolders);
      if (cut) return cut;
      const groups = groupsCarrying(r, HOLDER_ROLES.axl);
      if (typeof groups === 'string') return groups;
      const who = endUsersHolding(r, HOLDER_ROLES.axl).map(
        (h) => `${h.name} (through ${h.through.join(', ')})`,
      );
      return who.length > 0 ? `end users with AXL access: ${list(who)}` : undefined;
    },
    severity: 'high',
    remediation:
      'Remove end users from every group carrying the AXL role, Standard CCM Super Users included (give administrators a custom group with the administration roles they need and without Standard AXL API Access); give each integration an application user in a custom group with the AXL role and nothing more.',
    references: [AXL_FAQ, ...MEMBERSHIP_REFERENCES],
  },
];
