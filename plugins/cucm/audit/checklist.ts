// The CUCM security audit as data: topics (the security-guide chapters, summarised in the project's own
// words), and for each check the read-only tool calls that gather its evidence, the condition for a
// finding in words and as code, its severity and the remediation. The prompt `cucm_security_audit`,
// the `cucm://security-guide/{chapter}` resources and the scripted audit tests all read this one list.
import {
  FIPS_STATUS_UNVERIFIED,
  PASSWORD_AGE_UNVERIFIED,
  fipsVerdict,
  ntpVerdict,
  passwordAgeDays,
} from '../../_shared/audit/vos-verdicts.ts';
import {
  cannotJudge,
  outputOf,
  rowsOf,
  type Check,
  type Checklist,
  type EvidenceResult,
  type Reference,
  type Topic,
} from '../../_shared/audit/checklist.ts';
import { DRF_STATUS_REFERENCES, judgeDrfStatus } from '../../_shared/audit/drf-history.ts';
import {
  CONTROL_CENTER_API,
  CONTROL_CENTER_WSDL,
  describeService,
  serviceStatesOf,
} from '../../_shared/audit/service-evidence.ts';
import { certExpiry, certListText } from '../../_shared/audit/cli-tool-evidence.ts';
import { E, OWN_CERTIFICATES, certCalls, excerpt, incomplete, isTrue, pkidOf, text } from './evidence.ts';
import { EH, HOLDER_ROLES } from './evidence-hardening.ts';
import { appUsersHolding, groupsCarrying } from './role-holders.ts';
import { ACCESS_CHECKS } from './checks-access.ts';
import { ENDPOINT_CHECKS } from './checks-endpoints.ts';
import { OAUTH_CHECKS } from './checks-oauth.ts';
import { PLATFORM_CHECKS } from './checks-platform.ts';
import {
  CDR_SERVICE_PARAMETERS,
  CLI_SHOW_CERT,
  CUCM_CONFIG_TRACKER,
  CUCM_SQL_EXAMPLES,
  IMP_SYNC_AGENT_TAC,
  PERCELER_SIP_TRUNK_DESTINATIONS,
  SIP_TRUNK_QUERY_PATTERN,
  TINYCUCM_SQL,
  STANDARD_ROLES_AND_GROUPS,
  DATA_DICTIONARY_105,
  DATA_DICTIONARY_712,
  NTP_SYNCHRONISED,
  NTP_UNSYNCHRONISED,
  VOS_SERVICE_LIST,
  PA_SECURITY,
  PHONE_SECURITY,
  RISPORT70,
  SECURITY_MODES,
  SERVICE_PARAMETER_IDS,
  TLS_PHONE_PROFILE,
  TLS_SETUP,
  TLS_TRUNK_PROFILE,
  TOKENLESS_CTL,
  axlSchema,
  cliUtils,
} from './references.ts';
import {
  CUCM_USER_GROUP_SQL,
  VOS_CERT_LIST_OWN,
  VOS_CERT_OWN_VALIDITY,
  VOS_HEALTH_CHECK,
  VOS_SELF_SIGNED_DESCRIPTION,
  VOS_SHOW_CERT_OWN_FILE,
  VOS_SHOW_VERSION_ACTIVE,
} from '../../_shared/audit/vos-references.ts';

type Results = Record<string, EvidenceResult>;

const TOPICS: Topic[] = [
  {
    id: 'platform',
    title: 'Platform and OS hardening',
    summary:
      'The appliance underneath CUCM is administered through its own CLI account. That account is the most powerful on the node, so its password must age out like any other; the clock must be right for certificates, logs and tokens to mean anything; and the release must still receive security fixes.',
  },
  {
    id: 'tls',
    title: 'TLS versions and ciphers',
    summary:
      'Every web, API and signalling interface of the node negotiates TLS. Old protocol versions (1.0, 1.1) and weak cipher suites let an attacker on the path downgrade or decrypt sessions, including administrator logins and AXL traffic carrying credentials.',
  },
  {
    id: 'fips',
    title: 'FIPS mode',
    summary:
      'FIPS mode restricts the node to validated cryptographic modules and algorithms and runs their self tests at start. Organisations bound by FIPS 140 need it on every node; for the others it is still the simplest way to rule out legacy algorithms everywhere at once.',
  },
  {
    id: 'certificates',
    title: 'Certificates and expiry',
    summary:
      "The node's own certificates identify it to browsers, phones, trunks and other servers. An expired certificate breaks phone trust, secure trunks and administration; a self-signed web certificate trains administrators to click through warnings, which makes interception easy.",
  },
  {
    id: 'cluster-security',
    title: 'Cluster security mode and SRTP',
    summary:
      'In non-secure mode the cluster has no certificate trust list and cannot authenticate or encrypt phone signalling at all. Mixed mode enables TLS signalling and encrypted media (SRTP); trunks must also be allowed to carry SRTP or calls leaving the cluster go out in clear.',
  },
  {
    id: 'sip-trunks',
    title: 'SIP trunk security profiles',
    summary:
      'A SIP trunk is an open door to another system, often a carrier or an SBC. Its security profile decides whether signalling is authenticated and encrypted with TLS; a trunk on plain TCP or UDP can be spoofed and its calls redirected or overheard.',
  },
  {
    id: 'phones',
    title: 'Phone security',
    summary:
      'Phone security profiles decide whether phones authenticate with certificates and encrypt signalling and media, and whether SIP phones must answer a digest challenge. Non-secure profiles leave calls and phone configuration open to anyone on the voice network.',
  },
  {
    id: 'credentials',
    title: 'Password and PIN policy',
    summary:
      'Credential policies govern the passwords of administrators, end users and application users and the PINs used for voicemail, extension mobility and conferencing. Short, never-expiring, trivial credentials without lockout are what automated guessing and toll-fraud attacks rely on.',
  },
  {
    id: 'privileged-accounts',
    title: 'Privileged accounts and roles',
    summary:
      'Application users often hold broad rights for integrations. Any account that is not a built-in one and sits in a super-user group can change the whole cluster; such rights must be reviewed, and privileged passwords rotated.',
  },
  {
    id: 'services',
    title: 'Activated services',
    summary:
      'Services should run only when needed, but the Certificate Authority Proxy Function must be active to issue the certificates secure phones need. The CTL Provider is not needed: mixed mode is set with `utils ctl set-cluster mixed-mode` (tokenless CTL) since 10.0(1), without the USB-token CTL Client it served.',
  },
  {
    id: 'auto-registration',
    title: 'Auto-registration',
    summary:
      'With auto-registration on, any phone plugged into the network registers and gets a number and a calling search space. It is meant for initial deployment only; left on, it gives unknown devices a dial tone, and phones that auto-registered keep working long after.',
  },
  {
    id: 'toll-fraud',
    title: 'Toll-fraud exposure',
    summary:
      'Toll fraud routes expensive calls (usually international) through the system at its owner’s cost: inbound calls sent back out through a trunk, transfers from one outside party to another, or phones allowed to dial abroad without a forced authorization code.',
  },
  {
    id: 'audit-logging',
    title: 'Audit logging and call records',
    summary:
      'The application audit log records who changed what through the administration pages, AXL and the CLI; call detail records show who called where. Without them a compromise or toll-fraud incident cannot be detected or reconstructed.',
  },
  {
    id: 'backups',
    title: 'Backups',
    summary:
      'The Disaster Recovery System is the only supported way to restore a cluster. Backups must run on a schedule to a remote device and succeed; the date of the last successful backup is the evidence.',
  },
  {
    id: 'authentication',
    title: 'Directory authentication and single sign-on',
    summary:
      'End users and administrators authenticate against LDAP, or through an identity provider with SAML single sign-on. LDAP without TLS sends directory passwords and the synchronisation account’s bind password in clear; without SSO every administration page keeps its own password login.',
  },
  {
    id: 'snmp',
    title: 'SNMP',
    summary:
      'SNMP exposes the node’s inventory, processes and counters to management stations. Versions 1 and 2c authenticate with a community string sent in clear; SNMPv3 users must use SHA authentication and AES privacy.',
  },
];

// ---- helpers shared by the conditions ---------------------------------------------------------------

/** The values of a parameter's rows: one for an enterprise parameter, one per node for a service parameter. */
function paramValues(r: Results, name: string): string[] {
  return rowsOf(r.parameters)
    .filter((p) => text(p.paramname) === name)
    .map((p) => text(p.paramvalue));
}

const TRUE = /^t(rue)?$/i;

/** Each Unified CM node: its name and its server. */
function callManagerNodes(r: Results): { name: string; server: string }[] {
  return rowsOf(r.callManagers).map((cm) => ({ name: text(cm.name), server: text(cm.processNodeName) }));
}

/**
 * A per-node Boolean service parameter (one processconfig row per call-processing node): the
 * observation when a row is not True, or when fewer rows than Unified CM nodes were read. A missing
 * row is never a pass: `missing` says what it means (the documented default, or that it cannot be judged).
 */
/**
 * A per-node Boolean service parameter: a finding on each node where it is not True. A node without a
 * row is judged by `missing`: a documented default (a finding, e.g. CDR Enabled Flag False), or
 * `cannotJudge` when no default is documented.
 */
function perNodeFlag(
  r: Results,
  parameter: string,
  what: string,
  missing: { default: string } | { cannotJudge: string },
): string | undefined {
  const nodes = callManagerNodes(r).length;
  const values = paramValues(r, parameter);
  const off = values.filter((v) => !TRUE.test(v));
  if (off.length > 0)
    return `${what} on ${off.length} of ${Math.max(nodes, values.length)} call-processing nodes (${parameter} = ${list(off, 3)})`;
  if (values.length === 0 || values.length < nodes) {
    const read = `${parameter} read on ${values.length} of ${nodes} call-processing nodes`;
    return 'default' in missing
      ? `${read}: ${missing.default}`
      : cannotJudge(`${read}: ${missing.cannotJudge}`);
  }
  return undefined;
}

function list(items: string[], max = 8): string {
  return items.length > max
    ? `${items.slice(0, max).join(', ')} and ${items.length - max} more`
    : items.join(', ');
}

/** Route patterns (AXL rows) a calling search space (an AXL listCss row) reaches through its partitions. */
function patternsReached(r: Results, css: Record<string, unknown> | undefined): Record<string, unknown>[] {
  // The clause lists the partition names in order, joined by ':' (a partition name cannot hold one).
  const partitions = new Set(
    text(css?.clause)
      .split(':')
      .filter((n) => n !== ''),
  );
  return rowsOf(r.routePatterns).filter((p) => partitions.has(text(p.routePartitionName)));
}

/** International access in the North American (011) or international (00) dialling plans, after the access code. */
const INTERNATIONAL = /(^|\.|\\\+)(011|00)/;

function cssByPkid(r: Results, pkid: string): Record<string, unknown> | undefined {
  return rowsOf(r.css).find((c) => pkidOf(c) === pkid.toLowerCase());
}

/** A service's line in `utils service list` (`Name[STARTED]`, or `Name [STARTED]` as some VOS lines print). */
function serviceLine(out: string, service: string): string | undefined {
  return out.split('\n').find((l) => l.startsWith(service) && /^\s*\[/.test(l.slice(service.length)));
}

/** Any service state at all: an answer without one is not a service list. */
const SERVICE_STATE = /\[\s*(STARTED|STOPPED|STARTING|STOPPING)\s*\]/;

/** The CAPF service, named as Cisco's configuration guide names it. */
const CAPF_SERVICE: Reference = {
  document: 'System Configuration Guide for Cisco Unified Communications Manager',
  release: '12.5(1)SU4',
  section: 'Configure CAPF: Certificate Authority Proxy Function (CAPF) Overview',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/admin/12_5_1SU4/systemConfig/cucm_b_system-configuration-guide-1251su4/cucm_m_configure-capf.html',
  confirms: ['Cisco Certificate Authority Proxy Function (the CAPF service)'],
};

/** Application users (name) in any of the groups. */
function appUsersIn(
  r: Results,
  groupNames: readonly string[],
): { name: string; standard: boolean; pkid: string }[] {
  const groupPkids = new Set(
    rowsOf(r.groups)
      .filter((g) => groupNames.includes(text(g.name)))
      .map((g) => text(g.pkid)),
  );
  const members = new Set(
    rowsOf(r.appUserGroups)
      .filter((m) => groupPkids.has(text(m.fkdirgroup)))
      .map((m) => text(m.fkapplicationuser)),
  );
  return rowsOf(r.appUsers)
    .filter((u) => members.has(text(u.pkid)))
    .map((u) => ({ name: text(u.name), standard: isTrue(u.isstandard), pkid: text(u.pkid) }));
}

const SUPER_USER_GROUPS = ['Standard CCM Super Users', 'Standard CCM Admin Users'] as const;

function num(v: unknown): number {
  const n = Number(text(v));
  return Number.isFinite(n) ? n : NaN;
}

// ---- the checks -------------------------------------------------------------------------------------

const CHECKS: Check[] = [
  {
    id: 'CUCM-OS-01',
    topic: 'platform',
    title: 'OS administrator password never expires',
    rationale:
      'The CLI administrator controls the appliance; a password that never ages stays valid forever once leaked.',
    evidence: [E.osPasswordMaxAge],
    condition: 'the maximum password age is disabled, or longer than 90 days',
    evaluate(r) {
      const out = outputOf(r.osPasswordMaxAge);
      const days = passwordAgeDays(out);
      if (days === undefined) return cannotJudge(`unrecognised answer: ${excerpt(out)}`);
      if (days === 0) return 'OS password expiry maximum age is disabled';
      return days > 90 ? `OS password maximum age is ${days} days` : undefined;
    },
    severity: 'medium',
    remediation:
      'Set a maximum age of 90 days or less with `set password expiry maximum-age 90` (and a minimum age of at least one day) on every node.',
    references: [
      {
        ...CLI_SHOW_CERT,
        section: 'Show Commands: show password expiry',
        confirms: ['show password expiry maximum-age'],
      },
    ],
    unverified: PASSWORD_AGE_UNVERIFIED,
  },
  {
    id: 'CUCM-OS-02',
    topic: 'platform',
    title: 'Clock not synchronised with NTP',
    rationale:
      'Certificate validation, log correlation and single sign-on tokens all depend on a correct clock.',
    evidence: [E.ntp],
    condition:
      'utils ntp status reports "unsynchronised" (or neither "unsynchronised" nor "synchronised to NTP server", which cannot be judged)',
    evaluate: (r) => ntpVerdict(outputOf(r.ntp)),
    severity: 'low',
    remediation:
      'Point the publisher at reachable, trusted NTP servers (`utils ntp server add`) and check `utils ntp status` until it reports synchronisation.',
    references: [cliUtils('utils ntp status', ['utils ntp status']), NTP_SYNCHRONISED, NTP_UNSYNCHRONISED],
  },
  {
    id: 'CUCM-OS-03',
    topic: 'platform',
    title: 'Release out of security maintenance',
    rationale:
      "A release out of software maintenance receives no security fixes. Policy (the project's, no end-of-life notice was found to cite): only the two newest major releases, 15 and 14, count as maintained; 12.5 and older are reported.",
    evidence: [E.version],
    condition: 'the active version is lower than 14',
    evaluate(r) {
      const out = outputOf(r.version);
      const version = /Active Master Version:\s*(\d+)\.(\S+)/.exec(out);
      if (!version) return cannotJudge(`unrecognised answer: ${excerpt(out)}`);
      return Number(version[1]) < 14 ? `active release ${version[1]}.${version[2]}` : undefined;
    },
    severity: 'medium',
    remediation: 'Upgrade to a release that is still in software maintenance (14 or 15).',
    references: [
      { ...CLI_SHOW_CERT, section: 'Show Commands: show version', confirms: ['show version active'] },
      {
        document: 'Release Notes for Cisco Prime License Manager',
        release: '10.5(2)SU1a',
        section: 'Important Notes: Pre-Upgrade COP File',
        url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/plm/10_5_2_SU1/releasenotes/cplm_b_release-notes-1052su1/cplm_b_release-notes-cplm-1052su1_chapter_01.html',
        confirms: ['Active Master Version: (the line show version active prints on the VOS platform)'],
      },
      VOS_SHOW_VERSION_ACTIVE,
    ],
    unverified:
      "the release boundary (before 14) is the project's policy: no Cisco end-of-life notice for 12.5 was found to cite",
  },
  {
    id: 'CUCM-TLS-01',
    topic: 'tls',
    title: 'TLS 1.0 or 1.1 accepted',
    rationale:
      'TLS 1.0 and 1.1 have known weaknesses and are no longer allowed by most security baselines; every client the node serves supports 1.2.',
    evidence: [E.tlsMin],
    condition: 'the configured TLS minimum version is below 1.2',
    evaluate(r) {
      const out = outputOf(r.tlsMin);
      const v = /minimum version:\s*([\d.]+)/i.exec(out)?.[1];
      if (v === undefined) return cannotJudge(`unrecognised answer: ${excerpt(out)}`);
      return Number(v) < 1.2 ? `TLS minimum version is ${v}` : undefined;
    },
    severity: 'high',
    remediation:
      'Run `set tls min-version 1.2` on every node of the cluster (each node reboots), after confirming that phones, gateways and integrations support TLS 1.2.',
    references: [
      TLS_SETUP,
      {
        document: 'Prime Collaboration Deployment Administration Guide',
        release: '14 and SUs',
        section:
          'CLI Commands and Disaster Recovery System: CLI Commands for TLS Minimum Version Configuration',
        url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/pcdadmin/14/cucm_b_pcd-admin-guide-1401/cucm_b_pcd-admin-guide-1401_chapter_0110.html',
        confirms: ['show tls min-version', 'Configured TLS minimum version: 1.0'],
      },
    ],
  },
  {
    id: 'CUCM-TLS-02',
    topic: 'tls',
    title: 'Every TLS cipher suite allowed',
    rationale:
      'The "TLS Ciphers" enterprise parameter decides which suites the node offers; the ALL_CIPHERS options keep CBC and SHA-1 suites that a hardened node does not need.',
    evidence: [E.parameters],
    condition:
      'the TLS Ciphers enterprise parameter (TLSCipherPreference) is set to an ALL_CIPHERS option; when no TLSCipherPreference row is read the setting cannot be judged (not assessed, never passed)',
    evaluate(r) {
      const value = paramValues(r, 'TLSCipherPreference')[0];
      if (value === undefined)
        return 'cannot judge TLS Ciphers: no processconfig row named TLSCipherPreference (check System > Enterprise Parameters > Security Parameters)';
      return /^ALL_CIPHERS/i.test(value) ? `TLS Ciphers is "${value}"` : undefined;
    },
    severity: 'medium',
    remediation:
      'Set the "TLS Ciphers" enterprise parameter to a "Strongest" (AES-256, SHA-384) or "Medium" option and restart the services it names, after checking that trunks and integrations support those suites.',
    references: [TLS_SETUP, TOKENLESS_CTL, SERVICE_PARAMETER_IDS],
    unverified:
      "the stored values of TLSCipherPreference are not confirmed by a public source: the check reads an option text starting ALL_CIPHERS, as the lab stores it; the parameter id is confirmed (Cisco's param-name-mapper), its values are not",
  },
  {
    id: 'CUCM-FIPS-01',
    topic: 'fips',
    title: 'FIPS mode off',
    rationale:
      'Without FIPS mode the node accepts non-validated algorithms and skips the cryptographic self tests.',
    evidence: [E.fips],
    condition: 'utils fips status reports NON-FIPS mode',
    evaluate: (r) => fipsVerdict(outputOf(r.fips)),
    severity: 'medium',
    remediation:
      'Plan a maintenance window and enable FIPS mode (`utils fips enable`) node by node; certificates are regenerated and each node reboots. Enable the enhanced security mode where the organisation requires it.',
    references: [cliUtils('utils fips', ['utils fips status'])],
    unverified: FIPS_STATUS_UNVERIFIED,
  },
  {
    id: 'CUCM-CERT-01',
    topic: 'certificates',
    title: 'Certificate expired or expiring within 30 days',
    rationale:
      'An expired certificate breaks phone trust lists, secure trunks and browser access; 30 days leaves time to renew and distribute it.',
    evidence: certCalls,
    condition: `one of the node's own certificates (${OWN_CERTIFICATES.join(', ')}) is expired or expires within 30 days`,
    evaluate(r) {
      const now = Date.now();
      const soon: string[] = [];
      const unreadable: string[] = [];
      for (const name of OWN_CERTIFICATES) {
        const to = certExpiry(r.certList, name);
        if (!to) {
          unreadable.push(name);
          continue;
        }
        const days = Math.floor((to.getTime() - now) / 86_400_000);
        if (days < 30)
          soon.push(days < 0 ? `${name} expired ${-days} days ago` : `${name} expires in ${days} days`);
      }
      // An expiry read on one certificate is a finding even if another answer cannot be read.
      if (soon.length > 0) return soon.join('; ');
      return unreadable.length > 0
        ? cannotJudge(`no validity date in the answer for ${unreadable.join(', ')}`)
        : undefined;
    },
    severity: 'high',
    remediation:
      'Renew the certificate now: generate a CSR, have the enterprise CA sign it, upload it (or regenerate a self-signed one where that is the design), restart the services that use it, and watch the Certificate Expiry Monitor.',
    references: [
      { ...CLI_SHOW_CERT, section: 'Show Commands: show cert own', confirms: ['show cert own filename'] },
      VOS_SHOW_CERT_OWN_FILE,
      VOS_CERT_OWN_VALIDITY,
      // The tool lists the certificates first (show cert list own), then reads each.
      VOS_CERT_LIST_OWN,
    ],
  },
  {
    id: 'CUCM-CERT-02',
    topic: 'certificates',
    title: 'Self-signed web (tomcat) certificate',
    rationale:
      'Administrators, users and integrations reach the node through tomcat; a self-signed certificate cannot be verified, so warnings are ignored and interception goes unnoticed.',
    evidence: [E.certList],
    condition: 'show cert list own describes tomcat/tomcat.pem as self-signed',
    evaluate(r) {
      const out = certListText(r.certList);
      const line = out.split('\n').find((l) => l.startsWith('tomcat/tomcat.pem'));
      if (!line) return `tomcat/tomcat.pem is not listed: ${excerpt(out)}`;
      return /self-signed/i.test(line)
        ? `tomcat/tomcat.pem: ${line.split(':').slice(1).join(':').trim()}`
        : undefined;
    },
    severity: 'medium',
    remediation:
      'Have the tomcat certificate signed by the enterprise CA (a multi-server SAN certificate covers the cluster) and upload the CA chain as tomcat-trust.',
    references: [
      CLI_SHOW_CERT,
      VOS_CERT_LIST_OWN,
      VOS_SELF_SIGNED_DESCRIPTION,
      PA_SECURITY,
      // The tool reads each listed certificate too (show cert own <unit>/<file>.pem).
      VOS_CERT_OWN_VALIDITY,
    ],
  },
  {
    id: 'CUCM-CSM-01',
    topic: 'cluster-security',
    title: 'Cluster in non-secure mode',
    rationale:
      'A non-secure cluster cannot authenticate phones or encrypt signalling and media anywhere, whatever the profiles say.',
    evidence: [E.parameters],
    condition:
      'the ClusterSecurityMode enterprise parameter is 0 (non-secure); a missing row cannot be judged (not assessed, never passed)',
    evaluate(r) {
      const value = paramValues(r, 'ClusterSecurityMode')[0];
      if (value === undefined)
        return 'cannot judge the cluster security mode: no ClusterSecurityMode row was read';
      return value === '0' ? 'ClusterSecurityMode is 0 (non-secure)' : undefined;
    },
    severity: 'high',
    remediation:
      'Activate CAPF, then move the cluster to mixed mode with `utils ctl set-cluster mixed-mode` (tokenless CTL) on the publisher, restart the TFTP and CallManager services and reset the phones so they load the new trust list.',
    references: [SECURITY_MODES, TOKENLESS_CTL, cliUtils('utils ctl', ['utils ctl set-cluster mixed-mode'])],
  },
  {
    id: 'CUCM-CSM-02',
    topic: 'cluster-security',
    title: 'SIP trunk not allowed to carry SRTP',
    rationale:
      'Without "SRTP Allowed" a trunk strips media encryption: calls leave the cluster in clear even between secure endpoints.',
    evidence: [E.sipTrunks],
    condition: 'a SIP trunk has SRTP Allowed false',
    evaluate(r) {
      const cut = incomplete(r.sipTrunks);
      if (cut) return cut;
      const clear = rowsOf(r.sipTrunks)
        .filter((t) => !isTrue(t.srtpAllowed))
        .map((t) => text(t.name));
      return clear.length > 0 ? `SRTP not allowed on ${list(clear)}` : undefined;
    },
    severity: 'medium',
    remediation:
      'Tick "SRTP Allowed" on each trunk whose peer supports SRTP (with an encrypted trunk profile, since the keys travel in the signalling) and reset the trunk.',
    references: [PA_SECURITY, axlSchema(['listSipTrunk', 'LSipTrunk.name', 'LSipTrunk.srtpAllowed'])],
  },
  {
    id: 'CUCM-SIPT-01',
    topic: 'sip-trunks',
    title: 'SIP trunk without TLS',
    rationale:
      'A trunk on a non-secure profile accepts and sends signalling over TCP or UDP: it can be spoofed, and SRTP keys would travel in clear.',
    evidence: [E.sipTrunks, E.trunkProfiles],
    condition:
      "a SIP trunk's security profile is not Encrypted, or its incoming or outgoing transport is not TLS",
    evaluate(r) {
      const cut = incomplete(r.sipTrunks, r.trunkProfiles);
      if (cut) return cut;
      const profiles = new Map(rowsOf(r.trunkProfiles).map((p) => [text(p.name), p]));
      const weak: string[] = [];
      for (const t of rowsOf(r.sipTrunks)) {
        const name = text(t.securityProfileName);
        const p = profiles.get(name);
        if (!p) {
          weak.push(`${text(t.name)} (profile ${name || 'none'} not found)`);
          continue;
        }
        const mode = text(p.securityMode);
        const inT = text(p.incomingTransport);
        const outT = text(p.outgoingTransport);
        if (mode !== 'Encrypted' || inT !== 'TLS' || outT !== 'TLS')
          weak.push(`${text(t.name)} uses "${name}" (${mode}, in ${inT}, out ${outT})`);
      }
      return weak.length > 0 ? list(weak) : undefined;
    },
    severity: 'high',
    remediation:
      'Give the trunk an encrypted SIP trunk security profile (TLS both ways, the peer certificate subject as X.509 subject name), exchange certificates with the peer, and reset the trunk.',
    references: [
      TLS_TRUNK_PROFILE,
      axlSchema([
        'listSipTrunk',
        'LSipTrunk.securityProfileName',
        'listSipTrunkSecurityProfile',
        'LSipTrunkSecurityProfile.securityMode (Non Secure, Authenticated, Encrypted)',
        'LSipTrunkSecurityProfile.incomingTransport (TCP, UDP, TLS, TCP+UDP)',
        'LSipTrunkSecurityProfile.outgoingTransport',
      ]),
    ],
  },
  {
    id: 'CUCM-SIPT-02',
    topic: 'sip-trunks',
    title: 'SIP trunk destination on the cleartext port',
    rationale:
      'Port 5060 is plain SIP; a trunk that sends there is not using TLS even if the profile was meant to.',
    evidence: [E.sipTrunks, E.sipTrunkDestinations],
    condition:
      'a SIP trunk destination (siptrunkdestination, joined to its trunk through sipdevice) uses port 5060 (or no port, which means 5060)',
    evaluate(r) {
      const cut = incomplete(r.sipTrunks, r.sipTrunkDestinations);
      if (cut) return cut;
      const trunks = new Map(rowsOf(r.sipTrunks).map((t) => [pkidOf(t), text(t.name)]));
      const clear: string[] = [];
      for (const d of rowsOf(r.sipTrunkDestinations)) {
        const name = trunks.get(text(d.fkdevice));
        // Destinations of devices that are not SIP trunks (none in CUCM) are not this check's business.
        if (name === undefined) continue;
        const port = text(d.port) || '5060';
        if (port === '5060') clear.push(`${name} -> ${text(d.address) || '?'}:${port}`);
      }
      return clear.length > 0 ? list(clear) : undefined;
    },
    severity: 'medium',
    remediation: 'Send to the peer’s TLS port (normally 5061) once the trunk uses an encrypted profile.',
    references: [
      TLS_TRUNK_PROFILE,
      axlSchema(['listSipTrunk', 'LSipTrunk.name (and its uuid)']),
      SIP_TRUNK_QUERY_PATTERN,
      PERCELER_SIP_TRUNK_DESTINATIONS,
      CUCM_CONFIG_TRACKER,
    ],
  },
  {
    id: 'CUCM-PHONE-01',
    topic: 'phones',
    title: 'Phones on a non-encrypted security profile',
    rationale:
      'Unless the profile is Encrypted, phone signalling and media can be read and altered on the network and the phone configuration file is not protected.',
    evidence: [E.phoneSettings, E.phoneProfiles],
    condition: 'a phone security profile used by phones has a device security mode other than Encrypted',
    evaluate(r) {
      const cut = incomplete(r.phoneSettings, r.phoneProfiles);
      if (cut) return cut;
      const used = new Set(rowsOf(r.phoneSettings).map((p) => text(p.fksecurityprofile)));
      const weak = rowsOf(r.phoneProfiles)
        .filter((p) => used.has(pkidOf(p)) && text(p.deviceSecurityMode) !== 'Encrypted')
        .map((p) => `${text(p.name)} (${text(p.deviceSecurityMode) || 'no security mode'})`);
      return weak.length > 0 ? `phones use ${list(weak)}` : undefined;
    },
    severity: 'medium',
    remediation:
      'With the cluster in mixed mode and CAPF active, install locally significant certificates on the phones and move them to an Encrypted phone security profile.',
    references: [
      PHONE_SECURITY,
      TLS_PHONE_PROFILE,
      axlSchema([
        'listPhoneSecurityProfile',
        'LPhoneSecurityProfile.name',
        'LPhoneSecurityProfile.deviceSecurityMode (Non Secure, Authenticated, Encrypted)',
      ]),
      CUCM_SQL_EXAMPLES,
    ],
  },
  {
    id: 'CUCM-PHONE-02',
    topic: 'phones',
    title: 'SIP phones without digest authentication',
    rationale:
      'Digest authentication makes a SIP phone prove it knows its credential before CUCM accepts its requests; without it a spoofed phone can register in its place.',
    evidence: [E.phoneSettings, E.phoneProfiles],
    condition: 'a SIP phone security profile used by phones has Enable Digest Authentication off',
    evaluate(r) {
      const cut = incomplete(r.phoneSettings, r.phoneProfiles);
      if (cut) return cut;
      const used = new Set(rowsOf(r.phoneSettings).map((p) => text(p.fksecurityprofile)));
      const weak = rowsOf(r.phoneProfiles)
        .filter((p) => used.has(pkidOf(p)) && text(p.protocol) === 'SIP')
        .filter((p) => !isTrue(p.enableDigestAuthentication))
        .map((p) => text(p.name));
      return weak.length > 0 ? `digest authentication off in ${list(weak)}` : undefined;
    },
    severity: 'medium',
    remediation:
      'Enable digest authentication in the SIP phone security profiles and give each phone’s owner a digest credential.',
    references: [
      PHONE_SECURITY,
      axlSchema([
        'listPhoneSecurityProfile',
        'LPhoneSecurityProfile.protocol',
        'LPhoneSecurityProfile.enableDigestAuthentication',
      ]),
      CUCM_SQL_EXAMPLES,
    ],
  },
  {
    id: 'CUCM-PWD-01',
    topic: 'credentials',
    title: 'Short or trivial credentials accepted',
    rationale:
      'Short credentials and trivial ones (repeated digits, the user id) fall to guessing in minutes.',
    evidence: [E.credentialPolicies],
    condition: 'a credential policy allows fewer than 8 characters or has the trivial-credential check off',
    evaluate(r) {
      const weak = rowsOf(r.credentialPolicies)
        .filter((p) => !(num(p.minCredLength) >= 8) || !isTrue(p.trivialCredCheck))
        .map(
          (p) =>
            `${text(p.name)}: minimum length ${text(p.minCredLength)}, trivial check ${isTrue(p.trivialCredCheck) ? 'on' : 'off'}`,
        );
      return weak.length > 0 ? list(weak) : undefined;
    },
    severity: 'high',
    remediation:
      'Set the minimum length to at least 8 (12 for administrators) and turn the trivial-credential check on in every credential policy, including the PIN policy.',
    references: [
      axlSchema([
        'listCredentialPolicy',
        'LCredentialPolicy.name',
        'LCredentialPolicy.minCredLength',
        'LCredentialPolicy.trivialCredCheck',
      ]),
    ],
  },
  {
    id: 'CUCM-PWD-02',
    topic: 'credentials',
    title: 'No lockout after failed logins',
    rationale: 'Without a lockout threshold, passwords and PINs can be guessed without limit.',
    evidence: [E.credentialPolicies],
    condition: 'a credential policy has no failed-logon threshold (0) or one above 5',
    evaluate(r) {
      const weak = rowsOf(r.credentialPolicies)
        .filter((p) => !(num(p.failedLogon) >= 1 && num(p.failedLogon) <= 5))
        .map((p) => `${text(p.name)}: lockout after ${text(p.failedLogon)} failed logons (0 = never)`);
      return weak.length > 0 ? list(weak) : undefined;
    },
    severity: 'high',
    remediation:
      'Lock an account after 3 to 5 failed logons, for at least 30 minutes (or until an administrator unlocks it).',
    references: [
      axlSchema([
        'listCredentialPolicy',
        'LCredentialPolicy.name',
        'LCredentialPolicy.failedLogon',
        'LCredentialPolicy.lockoutDuration',
      ]),
    ],
  },
  {
    id: 'CUCM-PWD-03',
    topic: 'credentials',
    title: 'Credentials never expire or may be reused',
    rationale:
      'A credential that never expires, or that can be set back to a previous value, stays valid indefinitely once disclosed.',
    evidence: [E.credentialPolicies],
    condition:
      'a credential policy has no expiry (0), an expiry over 180 days, or remembers fewer than 5 previous credentials',
    evaluate(r) {
      const weak = rowsOf(r.credentialPolicies)
        .filter((p) => {
          const expires = num(p.credExpiresAfter);
          return !(expires >= 1 && expires <= 180) || !(num(p.prevCredStoredNum) >= 5);
        })
        .map(
          (p) =>
            `${text(p.name)}: expires after ${text(p.credExpiresAfter)} days (0 = never), remembers ${text(p.prevCredStoredNum)}`,
        );
      return weak.length > 0 ? list(weak) : undefined;
    },
    severity: 'medium',
    remediation: 'Expire credentials after 90 days at most and remember at least the last 12.',
    references: [
      axlSchema([
        'listCredentialPolicy',
        'LCredentialPolicy.name',
        'LCredentialPolicy.credExpiresAfter',
        'LCredentialPolicy.prevCredStoredNum',
      ]),
    ],
  },
  {
    id: 'CUCM-PWD-04',
    topic: 'credentials',
    title: 'End-user PINs exempt from expiry',
    rationale:
      'PINs protect voicemail and extension mobility and are the usual way into toll fraud; a PIN marked "does not expire" escapes the policy.',
    evidence: [E.nonExpiringPins],
    condition: 'any end-user PIN is flagged "does not expire"',
    evaluate(r) {
      const count = num(rowsOf(r.nonExpiringPins)[0]?.count);
      if (Number.isNaN(count)) return cannotJudge('the count of non-expiring PINs could not be read');
      return count > 0 ? `${count} end-user PIN(s) never expire` : undefined;
    },
    severity: 'medium',
    remediation: 'Clear "does not expire" on end-user PINs and apply the PIN credential policy to them.',
    references: [DATA_DICTIONARY_712, IMP_SYNC_AGENT_TAC],
    unverified:
      'the credential table and its column tkcredential are confirmed (a Cisco TAC query reads tkcredential = 3, the password), the value 4 for a PIN and the column doesnotexpire are not; on a node without that column the query faults and the check is reported unjudged',
  },
  {
    id: 'CUCM-PRIV-01',
    topic: 'privileged-accounts',
    title: 'Non-standard application user with super-user rights',
    rationale:
      'An integration account in a super-user group can change anything in the cluster; its password sits in another system’s configuration.',
    evidence: [E.appUsers, E.groups, E.appUserGroups],
    condition: `an application user that is not built in belongs to ${SUPER_USER_GROUPS.join(' or ')}`,
    evaluate(r) {
      const cut = incomplete(r.appUserGroups);
      if (cut) return cut;
      const users = appUsersIn(r, SUPER_USER_GROUPS)
        .filter((u) => !u.standard)
        .map((u) => u.name);
      return users.length > 0 ? `super-user application users: ${list(users)}` : undefined;
    },
    severity: 'critical',
    remediation:
      'Give each integration its own application user with only the roles it needs (for AXL: a custom AXL role, not a super-user group); remove unused accounts.',
    references: [
      STANDARD_ROLES_AND_GROUPS,
      CDR_SERVICE_PARAMETERS,
      DATA_DICTIONARY_105,
      CUCM_CONFIG_TRACKER,
      TINYCUCM_SQL,
    ],
  },
  {
    id: 'CUCM-PRIV-02',
    topic: 'privileged-accounts',
    title: 'Privileged application-user password never expires',
    rationale:
      'Passwords of accounts with super-user or AXL rights are the most valuable credentials in the cluster; exempting them from expiry means they are never rotated.',
    evidence: [E.appUsers, E.groups, E.appUserGroups, E.appUserPasswords, EH.roleGroups],
    // The AXL right is a role, held through Standard CCM Super Users or any custom group carrying it.
    condition: `an application user in ${SUPER_USER_GROUPS.join(' or ')}, or in any group carrying the role ${HOLDER_ROLES.axl}, has a password flagged "does not expire"`,
    evaluate(r) {
      const cut = incomplete(r.appUserGroups);
      if (cut) return cut;
      const axl = groupsCarrying(r, HOLDER_ROLES.axl);
      if (typeof axl === 'string') return axl;
      const never = new Set(
        rowsOf(r.appUserPasswords)
          .filter((c) => isTrue(c.doesnotexpire))
          .map((c) => text(c.fkapplicationuser)),
      );
      const privileged = new Set([
        ...appUsersIn(r, SUPER_USER_GROUPS).map((u) => u.pkid),
        ...appUsersHolding(r, axl).map((u) => u.pkid),
      ]);
      const users = rowsOf(r.appUsers)
        .filter((u) => privileged.has(text(u.pkid)) && never.has(text(u.pkid)))
        .map((u) => text(u.name));
      return users.length > 0 ? `passwords never expire for ${list(users)}` : undefined;
    },
    severity: 'medium',
    remediation:
      'Clear "does not expire" on privileged application users and rotate their passwords on a schedule agreed with the integration owners.',
    references: [
      STANDARD_ROLES_AND_GROUPS,
      CUCM_USER_GROUP_SQL,
      DATA_DICTIONARY_105,
      CUCM_CONFIG_TRACKER,
      TINYCUCM_SQL,
      IMP_SYNC_AGENT_TAC,
    ],
    unverified:
      'the membership and role tables, the groups Standard CCM Super Users and Standard CCM Admin Users, the role Standard AXL API Access, and credential.fkapplicationuser with tkcredential 3 (the password, in a Cisco TAC query) are confirmed; the column credential.doesnotexpire is not',
  },
  {
    id: 'CUCM-SVC-01',
    topic: 'services',
    title: 'Certificate Authority Proxy Function not activated',
    rationale:
      'Phones get the locally significant certificates that authenticated and encrypted profiles need from CAPF; while it is not activated no phone can be secured. The Cisco CTL Provider is not required: since 10.0(1) mixed mode is set with `utils ctl set-cluster mixed-mode` (tokenless CTL), which needs neither USB eTokens nor the CTL Client plugin the CTL Provider serves (the 14SU2 Security Guide still lists enabling the CTL service among the mixed-mode steps; the tokenless technote does not need it, so its state is left to the administrator).',
    evidence: [E.serviceStatus, E.services],
    condition:
      'Control Center does not report Cisco Certificate Authority Proxy Function Started (when Control Center cannot be read: utils service list does not show it [STARTED]); the state of the Cisco CTL Provider is not judged: tokenless mixed mode does not use it',
    evaluate(r) {
      const capf = 'Cisco Certificate Authority Proxy Function';
      const states = serviceStatesOf(r.serviceStatus);
      if (states) return states.get(capf)?.state === 'STARTED' ? undefined : describeService(states, capf);
      const out = outputOf(r.services);
      const line = serviceLine(out, capf);
      if (line && /^[^[]+\[\s*STARTED\s*\]/.test(line)) return undefined;
      if (!line && !SERVICE_STATE.test(out))
        return `cannot judge the security services: unrecognised answer: ${excerpt(out)}`;
      return line ? line.trim().replace(/\s+/g, ' ') : `${capf} not listed`;
    },
    severity: 'medium',
    remediation:
      'Activate Cisco Certificate Authority Proxy Function on the publisher in Serviceability (Tools > Service Activation). Activating the Cisco CTL Provider is not needed for tokenless mixed mode.',
    references: [
      TOKENLESS_CTL,
      SECURITY_MODES,
      CONTROL_CENTER_API,
      CONTROL_CENTER_WSDL,
      cliUtils('utils service list', ['utils service list']),
      VOS_HEALTH_CHECK,
      VOS_SERVICE_LIST,
      CAPF_SERVICE,
      {
        document: 'Cisco CallManager Security Guide',
        release: '4.1(3)',
        section: 'Configuring the Cisco CTL Client: Activating the Cisco CTL Provider Service',
        url: 'https://www.cisco.com/en/US/docs/voice_ip_comm/cucm/security/4_1_3/secuauth.html',
        confirms: ['Cisco CTL Provider (serves the CTL Client)'],
      },
    ],
  },
  {
    id: 'CUCM-AUTOREG-01',
    topic: 'auto-registration',
    title: 'Auto-registration enabled',
    rationale:
      'Any device plugged into the voice network registers and gets a line and a calling search space.',
    evidence: [E.callManagers],
    condition: 'auto-registration is enabled on any Unified CM node',
    evaluate(r) {
      const on = rowsOf(r.callManagers)
        .filter((cm) =>
          isTrue((cm.autoRegistration as Record<string, unknown> | undefined)?.autoRegistrationEnabled),
        )
        .map((cm) => {
          const a = cm.autoRegistration as Record<string, unknown>;
          return `${text(cm.name)} (DNs ${text(a.startDn)}-${text(a.endDn)})`;
        });
      return on.length > 0 ? `auto-registration enabled on ${list(on)}` : undefined;
    },
    severity: 'high',
    remediation:
      'Disable auto-registration on every Unified CM (tick "Auto-registration Disabled on this Cisco Unified Communications Manager"); add phones deliberately (bulk administration or self-provisioning with authentication).',
    references: [
      PA_SECURITY,
      axlSchema([
        'listCallManager',
        'LCallManager.processNodeName',
        'LCallManager.autoRegistration.autoRegistrationEnabled',
        'LCallManager.autoRegistration.startDn',
        'LCallManager.autoRegistration.endDn',
      ]),
    ],
  },
  {
    id: 'CUCM-AUTOREG-02',
    topic: 'auto-registration',
    title: 'Auto-registered phones present',
    rationale:
      'A phone that auto-registered has no owner and a default configuration, yet can place calls; it is often how unnoticed devices get a dial tone.',
    evidence: [E.autoRegisteredPhones],
    condition: 'RIS knows a phone (registered or not) whose description is "Auto <DN>"',
    evaluate(r) {
      const cut = incomplete(r.autoRegisteredPhones);
      if (cut) return cut;
      if (!r.autoRegisteredPhones?.ok) return undefined;
      const devices = (r.autoRegisteredPhones.data.devices ?? []) as Record<string, unknown>[];
      const auto = devices
        .filter((d) => /^Auto \d+$/.test(text(d.description)))
        .map((d) => `${text(d.name)} (${text(d.description)}, ${text(d.status)})`);
      return auto.length > 0 ? `auto-registered phones: ${list(auto)}` : undefined;
    },
    severity: 'high',
    remediation:
      'Identify each auto-registered phone; give the legitimate ones an owner, a proper DN and a restricted CSS, and delete the others.',
    references: [RISPORT70],
    unverified:
      'the "Auto <DN>" description an auto-registered phone gets is not confirmed by a public source found',
  },
  {
    id: 'CUCM-TOLL-01',
    topic: 'toll-fraud',
    title: 'Inbound trunk calls can reach the PSTN',
    rationale:
      'When the calling search space of a trunk reaches PSTN route patterns, a call arriving from outside can be routed straight back out at the owner’s expense.',
    evidence: [E.sipTrunks, E.css, E.routePatterns],
    condition: "a SIP trunk's inbound calling search space reaches any route pattern",
    evaluate(r) {
      const cut = incomplete(r.sipTrunks, r.css, r.routePatterns);
      if (cut) return cut;
      const exposed: string[] = [];
      for (const t of rowsOf(r.sipTrunks)) {
        const css = text(t.callingSearchSpaceName);
        if (css === '') continue;
        const row = rowsOf(r.css).find((c) => text(c.name) === css);
        const patterns = patternsReached(r, row).map((p) => text(p.pattern));
        if (patterns.length > 0) exposed.push(`${text(t.name)} (CSS ${css} reaches ${list(patterns, 4)})`);
      }
      return exposed.length > 0 ? list(exposed) : undefined;
    },
    severity: 'critical',
    remediation:
      'Give inbound trunks a calling search space that reaches internal numbers only; route any legitimate forwarding to the PSTN through a restricted, logged path.',
    references: [
      PA_SECURITY,
      axlSchema([
        'listSipTrunk',
        'LSipTrunk.callingSearchSpaceName',
        'listCss',
        'LCss.name',
        'LCss.clause',
        'listRoutePattern',
        'LRoutePattern.pattern',
        'LRoutePattern.routePartitionName',
      ]),
      CUCM_SQL_EXAMPLES,
    ],
  },
  {
    id: 'CUCM-TOLL-02',
    topic: 'toll-fraud',
    title: 'International dialling without a forced authorization code',
    rationale:
      'Any phone, including a compromised or auto-registered one, can place international calls unless the international patterns require an authorization code.',
    evidence: [E.phoneSettings, E.css, E.routePatterns],
    condition:
      'a calling search space used by phones reaches an international route pattern (011 or 00 after the access code) that does not require a forced authorization code',
    evaluate(r) {
      const cut = incomplete(r.phoneSettings, r.css, r.routePatterns);
      if (cut) return cut;
      const exposed: string[] = [];
      const cssUsed = new Set(rowsOf(r.phoneSettings).map((p) => text(p.fkcallingsearchspace)));
      for (const pkid of cssUsed) {
        if (pkid === '') continue;
        const css = cssByPkid(r, pkid);
        const open = patternsReached(r, css)
          .filter((p) => INTERNATIONAL.test(text(p.pattern)) && !isTrue(p.authorizationCodeRequired))
          .map((p) => text(p.pattern));
        if (open.length > 0) exposed.push(`${text(css?.name) || pkid} reaches ${list(open, 4)} without FAC`);
      }
      return exposed.length > 0 ? list(exposed) : undefined;
    },
    severity: 'high',
    remediation:
      'Require a forced authorization code on international route patterns, or keep them in a partition only the phones that need it can reach; block premium-rate destinations.',
    references: [
      PA_SECURITY,
      axlSchema([
        'listCss',
        'LCss.name',
        'LCss.clause',
        'LCss uuid',
        'listRoutePattern',
        'LRoutePattern.pattern',
        'LRoutePattern.routePartitionName',
        'LRoutePattern.authorizationCodeRequired',
      ]),
      CUCM_SQL_EXAMPLES,
    ],
  },
  {
    id: 'CUCM-TOLL-03',
    topic: 'toll-fraud',
    title: 'Off-net to off-net transfer not blocked',
    rationale:
      'Transferring a call from one outside party to another joins two external legs at the owner’s cost, a common toll-fraud technique through voicemail and auto attendants.',
    evidence: [E.callManagers, E.parameters],
    condition:
      'the Block OffNet to OffNet Transfer service parameter (BlockOffNetToOffNetTransfer) is not True on a Unified CM node; a node whose row is not read cannot be judged (not assessed, never passed)',
    evaluate(r) {
      return perNodeFlag(r, 'BlockOffNetToOffNetTransfer', 'off-net to off-net transfer allowed', {
        cannotJudge: 'the others cannot be judged',
      });
    },
    severity: 'high',
    remediation:
      'Set Block OffNet To OffNet Transfer to True on every call-processing node and classify gateways and trunks as off-net.',
    references: [PA_SECURITY, SERVICE_PARAMETER_IDS, TOKENLESS_CTL],
  },
  {
    id: 'CUCM-LOG-01',
    topic: 'audit-logging',
    title: 'Audit event service not running',
    rationale:
      'Without the audit log, changes made through the administration pages, AXL or the CLI leave no trace of who made them; the Cisco Audit Event Service writes it. The settings of the Audit Log Configuration window (Serviceability) are not read: no table, parameter or API for them is documented, so they are checked by hand.',
    evidence: [E.serviceStatus, E.services],
    condition:
      'Control Center does not report the Cisco Audit Event Service Started (stopped, not activated or absent; when Control Center cannot be read, utils service list does not show it STARTED); the Audit Log Configuration settings are not judged',
    evaluate(r) {
      const audit = 'Cisco Audit Event Service';
      const states = serviceStatesOf(r.serviceStatus);
      if (states)
        return states.get(audit)?.state === 'STARTED'
          ? undefined
          : `the audit log is not written: ${describeService(states, audit)}`;
      const out = outputOf(r.services);
      const line = serviceLine(out, audit);
      if (line && /\[\s*STARTED\s*\]/.test(line)) return undefined;
      if (!line && !SERVICE_STATE.test(out))
        return `cannot judge the audit event service: unrecognised answer: ${excerpt(out)}`;
      return line
        ? `the audit log is not written: ${line.trim().replace(/\s+/g, ' ')}`
        : `the audit log is not written: ${audit} not listed`;
    },
    severity: 'medium',
    remediation:
      'Start the Cisco Audit Event Service (Serviceability > Control Center - Network Services), check in Serviceability > Audit Log Configuration that the application audit log (and the database audit log at a level the team can review) is enabled, and send the log to a remote syslog server.',
    references: [
      CONTROL_CENTER_API,
      CONTROL_CENTER_WSDL,
      cliUtils('utils service list', ['utils service list']),
      VOS_HEALTH_CHECK,
      VOS_SERVICE_LIST,
      SERVICE_PARAMETER_IDS,
    ],
  },
  {
    id: 'CUCM-LOG-02',
    topic: 'audit-logging',
    title: 'Call detail records disabled',
    rationale:
      'Call detail records are the evidence of who called where; toll fraud is usually detected, and always reconstructed, from them.',
    evidence: [E.callManagers, E.parameters],
    condition:
      'the CDR Enabled Flag service parameter (CdrEnabled) is not True on a Unified CM node; a node whose row is not read has the documented default, False',
    evaluate(r) {
      return perNodeFlag(r, 'CdrEnabled', 'CDRs disabled', {
        default: 'the others have the default CDR Enabled Flag, False (no CDRs)',
      });
    },
    severity: 'medium',
    remediation:
      'Set the CDR Enabled Flag to True on every call-processing node and send the records to a billing or analysis server that alerts on unusual destinations.',
    references: [CDR_SERVICE_PARAMETERS, PA_SECURITY, SERVICE_PARAMETER_IDS, TOKENLESS_CTL],
  },
  {
    id: 'CUCM-BKP-01',
    topic: 'backups',
    title: 'No successful backup in the last 7 days',
    rationale: 'Without a recent backup a failed publisher or a destructive change cannot be undone.',
    evidence: [E.backups],
    condition:
      'utils disaster_recovery history backup lists no run with result SUCCESS in the last 7 days (a run that ended in ERROR does not count)',
    evaluate(r) {
      return judgeDrfStatus(r.backups, 7);
    },
    severity: 'high',
    remediation:
      'Configure a remote (SFTP) backup device and a daily schedule in Disaster Recovery System, run one now, and check its result with `utils disaster_recovery history backup` after each run.',
    references: [...DRF_STATUS_REFERENCES],
  },
];

export const CUCM_CHECKLIST: Checklist = {
  product: 'cucm',
  prompt: 'cucm_security_audit',
  title: 'CUCM security audit',
  guide: 'Cisco Unified Communications Manager security guide, release 15',
  topics: TOPICS,
  checks: [...CHECKS, ...ENDPOINT_CHECKS, ...ACCESS_CHECKS, ...OAUTH_CHECKS, ...PLATFORM_CHECKS],
};
