// The IM and Presence security audit as data: what the imp_security_audit prompt tells the agent, what
// the security-guide chapters explain, and what the scripted runs against the lab evaluate. Every
// evidence call is read-only and allowed for the auditor profile (test/plugins/imp/audit checks it).
import {
  CONTROL_CENTER_API,
  CONTROL_CENTER_WSDL,
  serviceStateMap,
  serviceStatusEvidence,
} from '../../_shared/audit/service-evidence.ts';
import {
  FIPS_STATUS_UNVERIFIED,
  PASSWORD_AGE_UNVERIFIED,
  fipsVerdict,
  ntpVerdict,
  passwordAgeDays,
} from '../../_shared/audit/vos-verdicts.ts';

export { certNotAfter } from '../../_shared/audit/vos-verdicts.ts';
import {
  cannotJudge,
  outputOf,
  rowsOf,
  type Check,
  type Checklist,
  type EvidenceCall,
  type EvidenceResult,
  type Topic,
} from '../../_shared/audit/checklist.ts';
import { DRF_STATUS_REFERENCES, judgeDrfStatus } from '../../_shared/audit/drf-history.ts';
import {
  certExpiry,
  certListEvidence,
  certListText,
  drfStatusEvidence,
} from '../../_shared/audit/cli-tool-evidence.ts';
import * as REF from './references.ts';

const DAY_MS = 86_400_000;
/** A certificate closer to its end than this is a finding: time to order, sign and install a new one. */
const CERT_MIN_DAYS = 30;
/** The newest complete DRF backup must be younger than this. */
const BACKUP_MAX_AGE_DAYS = 7;

// ---- Evidence calls (shared between checks: the same tool and arguments run once) ----------------

const cli = (id: string, command: string, purpose: string): EvidenceCall => ({
  id,
  tool: 'imp_os_run_command',
  args: { host: '{host}', command },
  purpose,
});

const sql = (id: string, query: string, purpose: string): EvidenceCall => ({
  id,
  tool: 'imp_axl_call',
  args: { host: '{host}', operation: 'executeSQLQuery', args: { sql: query } },
  purpose,
});

/**
 * The IM&P security settings the checks read from processconfig on the publisher. These are the lab's
 * stand-in names: the IM&P data dictionary is not public, and no public text shows where IM&P stores the
 * settings Cisco documents by their page labels (System > Security > Settings, XMPP Federation >
 * Settings and Policy, Serviceability > Audit Log Configuration). Each check that reads them says so in
 * `unverified`, and leaves the check not assessed when the row is missing, never passed.
 */
const SETTINGS = [
  'XmppTlsRequired',
  'XmppRouterToRouterTlsRequired',
  'XmppFederationTlsRequired',
  'XmppFederationRequireClientCerts',
  'XmppFederationPolicy',
  'XmppFederationAllowedDomains',
  'AuditLogEnabled',
  'AuditLogRemoteSyslogServer',
] as const;
type Setting = (typeof SETTINGS)[number];

const SETTINGS_SQL = sql(
  'settings',
  `select paramname, paramvalue from processconfig where paramname in (${SETTINGS.map((s) => `'${s}'`).join(', ')})`,
  'the XMPP, federation and audit-log settings of the IM&P nodes',
);

/** Credential policies through AXL: the AXL schema names every field (the table's columns are not public). */
const POLICIES: EvidenceCall = {
  id: 'policy',
  tool: 'imp_axl_call',
  args: {
    host: '{host}',
    operation: 'listCredentialPolicy',
    args: {
      searchCriteria: { name: '%' },
      returnedTags: {
        name: '',
        failedLogon: '',
        resetFailedLogonAttempts: '',
        lockoutDuration: '',
        minCredLength: '',
        trivialCredCheck: '',
        prevCredStoredNum: '',
        credExpiresAfter: '',
        inactiveDaysAllowed: '',
      },
    },
  },
  purpose: 'every credential policy: lockout, length, trivial check, history, expiry and inactivity',
};

const SERVICES = cli('services', 'utils service list', 'which services are activated and running');
/** Control Center's service states: the service checks' evidence, SERVICES their fallback. */
const SERVICE_STATUS = serviceStatusEvidence('imp', 'serviceStatus');

/** Service states: Control Center's when it was read, else `utils service list`. */
function statesOf(r: Record<string, EvidenceResult>): Map<string, string> {
  return serviceStateMap(r.serviceStatus, () => serviceStates(outputOf(r.services)));
}

/** The service that terminates XMPP federation on the node; it cannot start while federation is off. */
const FEDERATION_SERVICE = 'Cisco XCP XMPP Federation Connection Manager';

// Parsed by imp_cert_list: the list (who signed each) and each certificate's validity, one call.
const CERT_LIST = certListEvidence('imp', 'certs');

/** The certificates clients and federated servers see: web and SOAP login, XMPP client, XMPP federation. */
const IDENTITY_CERTS = ['tomcat/tomcat.pem', 'cup-xmpp/cup-xmpp.pem', 'cup-xmpp-s2s/cup-xmpp-s2s.pem'];

// ---- Reading the evidence -------------------------------------------------------------------------

/** Values of one setting across nodes; an empty list when no node has it. Empty values are ''. */
function setting(r: EvidenceResult | undefined, name: Setting): string[] {
  return rowsOf(r)
    .filter((row) => row.paramname === name)
    .map((row) => (row.paramvalue === null || row.paramvalue === undefined ? '' : String(row.paramvalue)));
}

const isTrue = (v: unknown): boolean => v === true || (typeof v === 'string' && /^(t|true|1)$/i.test(v));

/** A number from a SQL cell, NaN when absent or not numeric. */
function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

/** The name in an AXL foreign-key field as the tool returns it (`{"$value": "imp-sub1", ...}` or a string). */
function fkName(v: unknown): string {
  const text = v && typeof v === 'object' ? (v as Record<string, unknown>).$value : v;
  return typeof text === 'string' ? text.trim() : '';
}

/** Service name -> state from `utils service list` (`Name[STARTED]`, `Name[STOPPED] Service Not Activated`). */
export function serviceStates(output: string): Map<string, string> {
  const states = new Map<string, string>();
  for (const m of output.matchAll(/^(.+?)\[([A-Z ]+)\]/gm)) states.set((m[1] ?? '').trim(), m[2] ?? '');
  return states;
}

/**
 * Whether XMPP federation runs on the node, from `utils service list`: the federation connection
 * manager only starts where federation is turned on. Undefined when the list cannot be read.
 */
function federationInUse(r: Record<string, EvidenceResult>): boolean | undefined {
  const states = statesOf(r);
  return states.size === 0 ? undefined : states.get(FEDERATION_SERVICE) === 'STARTED';
}

/** A federation check's verdict: `judge` where federation runs, a pass where it does not. */
function whereFederated(
  r: Record<string, EvidenceResult>,
  judge: () => string | undefined,
): string | undefined {
  const inUse = federationInUse(r);
  if (inUse === undefined) return cannotJudge('service list not readable');
  return inUse ? judge() : undefined;
}

/**
 * A setting that must be T on every node that has it: the finding when one is not, or when no node has
 * it at all (a name the node does not store reads as "not set", never as a pass).
 */
function requiredOn(r: EvidenceResult | undefined, name: Setting, finding: string): string | undefined {
  const values = setting(r, name);
  if (values.length === 0) return cannotJudge(`${name} not set, so: ${finding} cannot be ruled out`);
  return values.some((v) => !isTrue(v)) ? finding : undefined;
}

/** One line per failing rule, or undefined when all pass. */
const joined = (problems: string[]): string | undefined =>
  problems.length > 0 ? problems.join('; ') : undefined;

/** Checks each credential policy row against rules; every row must pass every rule. */
function policyProblems(
  r: EvidenceResult | undefined,
  rules: [string, (row: Record<string, unknown>) => boolean][],
): string | undefined {
  const rows = rowsOf(r);
  if (rows.length === 0) return 'no credential policy found';
  const problems: string[] = [];
  for (const row of rows) {
    const failing = rules.filter(([, ok]) => !ok(row)).map(([what]) => what);
    if (failing.length > 0) problems.push(`${fkName(row.name) || 'unnamed policy'}: ${failing.join(', ')}`);
  }
  return joined(problems);
}

// ---- Topics ---------------------------------------------------------------------------------------

const TOPICS: Topic[] = [
  {
    id: 'platform',
    title: 'Platform and OS hardening',
    summary:
      'The appliance operating system under IM and Presence is administered through the VOS CLI and the OS administration pages. Its administrator accounts are the most powerful on the node, so their passwords must age out, and the clock must be synchronised so that logs, certificates and the audit trail line up with the rest of the cluster.',
  },
  {
    id: 'tls',
    title: 'TLS and ciphers',
    summary:
      'Every secure interface of the node (web administration, SOAP and AXL, XMPP, SIP over TLS) negotiates within one minimum TLS version set at the OS level. Versions before 1.2 admit downgrade and weak cipher suites; raising the floor removes them from every interface at once.',
  },
  {
    id: 'fips',
    title: 'FIPS mode',
    summary:
      'FIPS mode restricts the node to validated cryptographic modules and approved algorithms, and runs self-tests at start-up. Deployments that must meet government or regulated-industry requirements need it on every node of the cluster.',
  },
  {
    id: 'certificates',
    title: 'Certificates and expiry',
    summary:
      'Jabber clients, browsers and federated XMPP servers identify the node by its tomcat, cup-xmpp and cup-xmpp-s2s certificates. Self-signed certificates teach users to accept warnings and cannot be validated by partners; an expired one stops logins and federation outright.',
  },
  {
    id: 'passwords',
    title: 'Password policy',
    summary:
      'Application and end-user credentials on IM and Presence follow the credential policies synchronised from Unified CM. The policy decides how many guesses an attacker gets, how long and how varied passwords must be, and when old or idle credentials stop working.',
  },
  {
    id: 'accounts',
    title: 'Privileged accounts and roles',
    summary:
      'Roles are granted through access control groups. Super-user groups give full administrative control of the cluster; an integration or service account needs only the narrow group its API requires, so each extra super user widens what a leaked password can do.',
  },
  {
    id: 'services',
    title: 'Activated services',
    summary:
      'Each activated feature service opens listeners and code paths. Services for optional features (directory search for third-party XMPP clients, SIP federation) should be activated only where the feature is really in use.',
  },
  {
    id: 'audit-logging',
    title: 'Audit logging',
    summary:
      'The application audit log records who changed what in the administration interfaces and APIs. It must be on, the service that writes it must run, and a copy must leave the node for a remote syslog server so an intruder with administrator rights cannot erase the trail.',
  },
  {
    id: 'backups',
    title: 'Backups',
    summary:
      'The Disaster Recovery System (DRF) backs up the IM and Presence database, presence and platform data to a remote server. Without a recent successful backup, a failed disk or a destructive change cannot be undone; the DRF writes one log per component for every backup it runs.',
  },
  {
    id: 'xmpp-federation',
    title: 'XMPP TLS and federation',
    summary:
      "XMPP carries chat, presence and file-transfer offers. Client connections must negotiate TLS before authentication and the XMPP routers must use TLS between nodes and clusters; federation with other XMPP domains must encrypt the server-to-server link, validate the partner's certificate and admit only the partner domains the organisation has agreed to.",
  },
  {
    id: 'ha',
    title: 'High availability',
    summary:
      'A presence redundancy group pairs two IM and Presence nodes. With high availability on, users of a failed node move to its peer and stay signed in; with it off, or with a single node in the group, a node failure signs every assigned user out.',
  },
];

// ---- Checks ---------------------------------------------------------------------------------------

const CHECKS: Check[] = [
  {
    id: 'IMP-OS-01',
    topic: 'platform',
    title: 'OS administrator passwords age out',
    rationale:
      'A CLI administrator password that never expires stays valid for as long as it circulates; a minimum age stops users cycling straight back to an old password.',
    references: [REF.CLI_SHOW_COMMANDS],
    unverified: PASSWORD_AGE_UNVERIFIED,
    evidence: [
      cli('max', 'show password expiry maximum-age', 'the maximum password age of OS accounts'),
      cli('min', 'show password expiry minimum-age', 'the minimum password age of OS accounts'),
    ],
    condition: 'the maximum age is disabled or longer than 180 days, or the minimum age is disabled (0).',
    evaluate(r) {
      const max = passwordAgeDays(outputOf(r.max));
      const min = passwordAgeDays(outputOf(r.min));
      const problems: string[] = [];
      if (max === 0) problems.push('maximum age disabled');
      else if (max !== undefined && max > 180) problems.push(`maximum age ${max} days`);
      if (min === 0) problems.push('minimum age disabled');
      // A weakness read on one answer is a finding even if the other cannot be read.
      if (problems.length === 0 && (max === undefined || min === undefined))
        return cannotJudge(`${max === undefined ? 'maximum' : 'minimum'} age not readable`);
      return joined(problems);
    },
    severity: 'medium',
    remediation:
      'Set ageing on the OS accounts: `set password expiry maximum-age 90` and `set password expiry minimum-age 1` (or your policy values) on every node.',
  },
  {
    id: 'IMP-OS-02',
    topic: 'platform',
    title: 'The clock is synchronised to NTP',
    rationale:
      'Certificates, single sign-on assertions and log correlation all depend on the time; an unsynchronised node also makes the audit trail unreliable.',
    references: [REF.NTP_ON_IMP, REF.NTP_UNSYNCHRONISED, REF.CLI_UTILS_COMMANDS],
    evidence: [cli('ntp', 'utils ntp status', 'whether the node is synchronised to an NTP server')],
    condition: 'utils ntp status reports the node unsynchronised.',
    evaluate: (r) => ntpVerdict(outputOf(r.ntp)),
    severity: 'low',
    remediation:
      'Point the publisher at reliable NTP servers (OS administration, Settings > NTP Servers) and check `utils ntp status` again after a few polls.',
  },
  {
    id: 'IMP-TLS-01',
    topic: 'tls',
    title: 'Minimum TLS version is 1.2 or later',
    rationale:
      'TLS 1.0 and 1.1 allow downgrade attacks and obsolete cipher suites on every secure interface of the node, XMPP included.',
    references: [REF.TLS_MIN_VERSION],
    evidence: [cli('tls', 'show tls min-version', 'the minimum TLS version of all secure interfaces')],
    condition: 'the configured minimum version is below 1.2.',
    evaluate(r) {
      const m = /minimum version:\s*([\d.]+)/i.exec(outputOf(r.tls));
      if (!m?.[1]) return cannotJudge('minimum TLS version not readable');
      return Number(m[1]) < 1.2 ? `minimum TLS version ${m[1]}` : undefined;
    },
    severity: 'high',
    remediation:
      'After confirming every client and peer supports TLS 1.2, run `set tls min-version 1.2` on each node of the cluster (it asks for a reboot), in a maintenance window.',
  },
  {
    id: 'IMP-FIPS-01',
    topic: 'fips',
    title: 'FIPS mode is on',
    rationale:
      'Without FIPS mode the node may use non-validated modules and algorithms, which regulated deployments do not accept.',
    references: [REF.XMPP_SECURITY_SETTINGS, REF.FIPS_COMMANDS],
    unverified: FIPS_STATUS_UNVERIFIED,
    evidence: [cli('fips', 'utils fips status', 'whether the node runs in FIPS mode')],
    condition: 'the node reports NON-FIPS mode.',
    evaluate: (r) => fipsVerdict(outputOf(r.fips)),
    severity: 'medium',
    remediation:
      'Where the deployment requires it, enable FIPS with `utils fips enable` on each node, one at a time (each reboots and regenerates its certificates), then re-sign the identity certificates.',
  },
  {
    id: 'IMP-CERT-01',
    topic: 'certificates',
    title: 'Client-facing certificates are CA-signed',
    rationale:
      'Jabber clients and federated servers can only validate a certificate issued by a CA they trust; a self-signed identity invites users to click through warnings and lets an impostor blend in.',
    references: [
      REF.IMP_CERTIFICATE_TYPES,
      REF.CLI_SHOW_COMMANDS,
      REF.CERT_LIST_OWN,
      REF.SELF_SIGNED_DESCRIPTION,
    ],
    evidence: [CERT_LIST],
    condition:
      'tomcat, cup-xmpp or cup-xmpp-s2s is self-signed, or tomcat or cup-xmpp is missing from the list.',
    evaluate(r) {
      const lines = certListText(r.certs).split('\n');
      const problems: string[] = [];
      for (const name of IDENTITY_CERTS) {
        const line = lines.find((l) => l.trim().toLowerCase().startsWith(`${name.toLowerCase()}:`));
        if (!line) {
          if (!name.startsWith('cup-xmpp-s2s')) problems.push(`${name} not listed`);
        } else if (/self-signed/i.test(line)) problems.push(`${name} is self-signed`);
      }
      return joined(problems);
    },
    severity: 'medium',
    remediation:
      'Generate a CSR for each of tomcat, cup-xmpp and cup-xmpp-s2s (OS administration, Certificate Management), have the enterprise or a public CA sign it, upload the CA chain to the matching -trust store and the certificate itself, then restart the services the upload names.',
  },
  {
    id: 'IMP-CERT-02',
    topic: 'certificates',
    title: `No client-facing certificate expires within ${CERT_MIN_DAYS} days`,
    rationale:
      'An expired tomcat or XMPP certificate stops Jabber sign-in and federation without warning to users; renewal takes time to plan.',
    references: [
      REF.IMP_CERTIFICATE_TYPES,
      REF.CLI_SHOW_COMMANDS,
      REF.SHOW_CERT_OWN_FILE,
      REF.CERT_OWN_VALIDITY,
    ],
    evidence: [CERT_LIST],
    condition: `a certificate expires within ${CERT_MIN_DAYS} days or has expired.`,
    evaluate(r) {
      const problems: string[] = [];
      const unreadable: string[] = [];
      IDENTITY_CERTS.forEach((name) => {
        const to = certExpiry(r.certs, name);
        if (!to) {
          unreadable.push(name);
          return;
        }
        const days = Math.floor((to.getTime() - Date.now()) / DAY_MS);
        if (days < CERT_MIN_DAYS)
          problems.push(
            days < 0
              ? `${name} expired on ${to.toISOString().slice(0, 10)}`
              : `${name} expires in ${days} days (${to.toISOString().slice(0, 10)})`,
          );
      });
      if (problems.length === 0 && unreadable.length > 0)
        return cannotJudge(`end of validity not readable for ${unreadable.join(', ')}`);
      return joined(problems);
    },
    severity: 'high',
    remediation:
      'Renew the certificate now: a new CSR signed by the CA (or, only as a stop-gap, regeneration), uploaded on every node, then restart the services it names (Cisco Tomcat, Cisco XCP Connection Manager or XCP Router).',
  },
  {
    id: 'IMP-PWD-01',
    topic: 'passwords',
    title: 'Accounts lock after a few failed logons',
    rationale:
      'Without a lockout threshold an attacker can guess application and end-user passwords indefinitely against the web pages, AXL and Jabber sign-in.',
    references: [REF.AXL_CREDENTIAL_POLICY],
    evidence: [POLICIES],
    condition:
      'a credential policy allows unlimited failed logons (0) or more than 5, or never resets the count of failures (0 minutes).',
    evaluate(r) {
      return policyProblems(r.policy, [
        ['no lockout threshold', (p) => num(p.failedLogon) > 0],
        ['lockout threshold above 5', (p) => !(num(p.failedLogon) > 5)],
        ['failed-logon counter never resets', (p) => num(p.resetFailedLogonAttempts) > 0],
      ]);
    },
    severity: 'high',
    remediation:
      'In Unified CM administration (User Management > User Settings > Credential Policy), set failed logons allowed to 3-5, a reset period and a lockout duration of at least 30 minutes; the change reaches IM and Presence by synchronisation.',
  },
  {
    id: 'IMP-PWD-02',
    topic: 'passwords',
    title: 'Passwords are long, non-trivial and not reused',
    rationale:
      'Short or trivial passwords fall to guessing; without history a forced change can return to the previous password.',
    references: [REF.AXL_CREDENTIAL_POLICY],
    evidence: [POLICIES],
    condition:
      'a credential policy allows passwords shorter than 8 characters, does not reject trivial passwords, or remembers fewer than 5 previous passwords.',
    evaluate(r) {
      return policyProblems(r.policy, [
        ['minimum length below 8', (p) => num(p.minCredLength) >= 8],
        ['trivial passwords accepted', (p) => isTrue(p.trivialCredCheck)],
        ['fewer than 5 previous passwords remembered', (p) => num(p.prevCredStoredNum) >= 5],
      ]);
    },
    severity: 'medium',
    remediation:
      'In the credential policy, set a minimum length of at least 8 (12 for administrators), check "Check for Trivial Passwords" and store at least 5 previous credentials.',
  },
  {
    id: 'IMP-PWD-03',
    topic: 'passwords',
    title: 'Credentials expire and idle accounts are disabled',
    rationale:
      'A password that never expires, or an account nobody uses that stays enabled, keeps a leaked credential useful indefinitely.',
    references: [REF.AXL_CREDENTIAL_POLICY],
    evidence: [POLICIES],
    condition:
      'a credential policy never expires credentials (0) or lets them live longer than 180 days, or never disables inactive accounts (0).',
    evaluate(r) {
      return policyProblems(r.policy, [
        ['credentials never expire', (p) => num(p.credExpiresAfter) > 0],
        ['credentials live longer than 180 days', (p) => !(num(p.credExpiresAfter) > 180)],
        ['inactive accounts are never disabled', (p) => num(p.inactiveDaysAllowed) > 0],
      ]);
    },
    severity: 'medium',
    remediation:
      'In the credential policy, set "Expires After" to 90 days (or your policy) and "Inactive Days Allowed" to 90; give integration accounts their own policy with a documented rotation instead of no expiry.',
  },
  {
    id: 'IMP-ACCT-01',
    topic: 'accounts',
    title: 'Only the installation administrator holds a super-user role',
    rationale:
      'A super-user application account can reconfigure the whole cluster; integrations need only their API group (for example Standard AXL API Access).',
    references: [REF.AXL_APP_USER, REF.CUCM_DATA_DICTIONARY_712, REF.USER_GROUP_SQL, REF.ONBOARDING_SCRIPT],
    unverified:
      'on the IM and Presence node: every table and column the queries use (applicationuser pkid, name, isstandard; dirgroup pkid, name; applicationuserdirgroupmap fkapplicationuser, fkdirgroup) is confirmed on Unified CM by public scripts that query its database, but no public text shows that the IM&P database holds the same tables, nor the Standard CCM Super Users group there. A SQL fault is reported as unjudged, never as a pass.',
    evidence: [
      sql(
        'groups',
        "select pkid, name from dirgroup where name like '%Super Users%'",
        'the super-user access control groups',
      ),
      sql(
        'members',
        'select fkapplicationuser, fkdirgroup from applicationuserdirgroupmap',
        'which application users belong to which groups',
      ),
      sql('apps', 'select pkid, name, isstandard from applicationuser', 'the application users'),
    ],
    condition:
      'an application user that is not a standard (installation-created) account belongs to a super-user group.',
    evaluate(r) {
      const groups = new Map(rowsOf(r.groups).map((g) => [String(g.pkid), String(g.name)]));
      const apps = new Map(rowsOf(r.apps).map((a) => [String(a.pkid), a]));
      const privileged = new Set<string>();
      for (const m of rowsOf(r.members)) {
        const group = groups.get(String(m.fkdirgroup));
        const app = apps.get(String(m.fkapplicationuser));
        if (group && app && !isTrue(app.isstandard)) privileged.add(`${String(app.name)} (${group})`);
      }
      return privileged.size > 0
        ? `non-standard application users with a super-user role: ${[...privileged].sort().join(', ')}`
        : undefined;
    },
    severity: 'high',
    remediation:
      'Remove the account from the super-user group and give it only the groups its integration needs (e.g. Standard AXL API Access); rotate its password, since it may have been shared widely.',
  },
  {
    id: 'IMP-SVC-01',
    topic: 'services',
    title: 'Optional network services are not activated without need',
    rationale:
      'Each running service is attack surface; the directory service for third-party XMPP clients and the SIP federation connection manager are only needed for those features.',
    references: [
      REF.IMP_SERVICES,
      CONTROL_CENTER_API,
      CONTROL_CENTER_WSDL,
      REF.CLI_UTILS_COMMANDS,
      REF.SERVICE_LIST_FORMAT,
    ],
    evidence: [SERVICE_STATUS, SERVICES],
    condition:
      'Cisco XCP Directory Service or Cisco XCP SIP Federation Connection Manager is STARTED (confirm the feature is in use before accepting it).',
    evaluate(r) {
      const states = statesOf(r);
      if (states.size === 0) return cannotJudge('service list not readable');
      const running = ['Cisco XCP Directory Service', 'Cisco XCP SIP Federation Connection Manager'].filter(
        (s) => states.get(s) === 'STARTED',
      );
      return running.length > 0 ? `activated and running: ${running.join(', ')}` : undefined;
    },
    severity: 'low',
    remediation:
      'If no third-party XMPP client needs directory search and no SIP federation is configured, deactivate these services in Cisco Unified IM and Presence Serviceability (Tools > Service Activation) on every node.',
  },
  {
    id: 'IMP-LOG-01',
    topic: 'audit-logging',
    title: 'Application audit logging is on and forwarded off the node',
    rationale:
      'Without the application audit log, administrative changes cannot be attributed; a log kept only on the node can be wiped by whoever compromised it.',
    references: [
      REF.AUDIT_LOGGING,
      CONTROL_CENTER_API,
      CONTROL_CENTER_WSDL,
      REF.CLI_UTILS_COMMANDS,
      REF.SERVICE_LIST_FORMAT,
    ],
    unverified:
      "processconfig names `AuditLogEnabled` and `AuditLogRemoteSyslogServer` are the lab's stand-ins for the Audit Log Configuration settings (Enable Audit Log, remote syslog server): where IM&P stores them has no public source. A missing row leaves the check not assessed, never passed.",
    evidence: [SETTINGS_SQL, SERVICE_STATUS, SERVICES],
    condition:
      'AuditLogEnabled is not T on some node (or not set), no remote syslog server receives the audit log, or Cisco Audit Event Service is not STARTED.',
    evaluate(r) {
      const problems: string[] = [];
      const enabled = setting(r.settings, 'AuditLogEnabled');
      if (enabled.length === 0 || enabled.some((v) => !isTrue(v))) problems.push('application audit log off');
      const remote = setting(r.settings, 'AuditLogRemoteSyslogServer');
      if (remote.length === 0 || remote.some((v) => v.trim() === ''))
        problems.push('no remote syslog server for the audit log');
      if (statesOf(r).get('Cisco Audit Event Service') !== 'STARTED')
        problems.push('Cisco Audit Event Service not running');
      return joined(problems);
    },
    severity: 'medium',
    remediation:
      'In IM and Presence Serviceability (Tools > Audit Log Configuration) enable the application audit log with the cluster-wide option, set a remote syslog server, and make sure Cisco Audit Event Service runs on every node.',
  },
  {
    id: 'IMP-BKP-01',
    topic: 'backups',
    title: `A successful DRF backup ran within the last ${BACKUP_MAX_AGE_DAYS} days`,
    rationale:
      'An old or missing backup means a failed node or a destructive change loses users, contacts and configuration.',
    evidence: [drfStatusEvidence('imp', 'drf')],
    condition: `utils disaster_recovery history backup lists no run with result SUCCESS in the last ${BACKUP_MAX_AGE_DAYS} days (a run that ended in ERROR does not count).`,
    evaluate(r) {
      return judgeDrfStatus(r.drf, BACKUP_MAX_AGE_DAYS);
    },
    severity: 'high',
    remediation:
      'Configure a DRF backup device on a remote SFTP server and a daily schedule for the whole IM and Presence cluster (Disaster Recovery System > Backup > Scheduler); run one now and confirm with `utils disaster_recovery history backup` that it ends in SUCCESS.',
    references: [...DRF_STATUS_REFERENCES],
  },
  {
    id: 'IMP-XMPP-01',
    topic: 'xmpp-federation',
    title: 'XMPP clients must use TLS',
    rationale:
      'If TLS is optional on the client port, a client or attacker can authenticate and chat in clear text on the network.',
    references: [REF.XMPP_SECURITY_SETTINGS],
    unverified:
      'processconfig name `XmppTlsRequired` is the lab\'s stand-in for "Enable XMPP Client To IM/P Service Secure Mode" (System > Security > Settings): where IM&P stores it has no public source. A missing row leaves the check not assessed, never passed.',
    evidence: [SETTINGS_SQL],
    condition: 'XmppTlsRequired is not T on some node, or is not set.',
    evaluate(r) {
      return requiredOn(r.settings, 'XmppTlsRequired', 'XMPP client connections do not require TLS');
    },
    severity: 'high',
    remediation:
      'Require TLS for XMPP client connections (System > Security > Settings, "Enable XMPP Client To IM/P Service Secure Mode"), then restart Cisco XCP Connection Manager in a maintenance window.',
  },
  {
    id: 'IMP-XMPP-02',
    topic: 'xmpp-federation',
    title: 'XMPP routers talk to each other over TLS',
    rationale:
      'Chat and presence between IM and Presence nodes, within a cluster and to peer clusters, cross the XMPP router-to-router links; without TLS they travel in clear text between data centres.',
    references: [REF.XMPP_SECURITY_SETTINGS, REF.IMP_CERTIFICATE_TYPES],
    unverified:
      'processconfig name `XmppRouterToRouterTlsRequired` is the lab\'s stand-in for "Enable XMPP Router-to-Router Secure Mode" (System > Security > Settings): where IM&P stores it has no public source. A missing row leaves the check not assessed, never passed.',
    evidence: [SETTINGS_SQL],
    condition: 'XmppRouterToRouterTlsRequired is not T on some node, or is not set.',
    evaluate(r) {
      return requiredOn(
        r.settings,
        'XmppRouterToRouterTlsRequired',
        'XMPP router-to-router connections do not use TLS',
      );
    },
    severity: 'medium',
    remediation:
      'Check "Enable XMPP Router-to-Router Secure Mode" (System > Security > Settings); the cup-xmpp certificates are replicated as cup-xmpp-trust across the cluster and peer clusters. Restart Cisco XCP Router on every node in a maintenance window.',
  },
  {
    id: 'IMP-FED-01',
    topic: 'xmpp-federation',
    title: 'XMPP federation requires TLS',
    rationale:
      'Federated chat and presence cross networks the organisation does not control; without TLS on the server-to-server link they can be read and altered in transit.',
    references: [REF.XMPP_FEDERATION, REF.IMP_SERVICES, CONTROL_CENTER_API, CONTROL_CENTER_WSDL],
    unverified:
      "processconfig name `XmppFederationTlsRequired` is the lab's stand-in for the XMPP federation Security Mode (No TLS / TLS Optional / TLS Required): where IM&P stores it has no public source. A missing row leaves the check not assessed, never passed.",
    evidence: [SERVICE_STATUS, SERVICES, SETTINGS_SQL],
    condition: `${FEDERATION_SERVICE} is STARTED (federation in use) and XmppFederationTlsRequired is not T.`,
    evaluate(r) {
      return whereFederated(r, () =>
        requiredOn(r.settings, 'XmppFederationTlsRequired', 'XMPP federation runs without requiring TLS'),
      );
    },
    severity: 'high',
    remediation:
      'Set the XMPP federation Security Mode to "TLS Required" (Presence > Inter-Domain Federation > XMPP Federation > Settings); make sure cup-xmpp-s2s is CA-signed first, then restart Cisco XCP Router and Cisco XCP XMPP Federation Connection Manager.',
  },
  {
    id: 'IMP-FED-02',
    topic: 'xmpp-federation',
    title: 'Federation admits only agreed partner domains',
    rationale:
      'An allow-all federation policy lets any XMPP domain on the internet reach users with chat and presence requests, a channel for spam and phishing.',
    references: [REF.XMPP_FEDERATION, REF.IMP_SERVICES, CONTROL_CENTER_API, CONTROL_CENTER_WSDL],
    unverified:
      "processconfig names `XmppFederationPolicy` and `XmppFederationAllowedDomains` are the lab's stand-ins for the XMPP federation Policy (Allow / Deny) and its policy exceptions: where IM&P stores them has no public source. A missing row leaves the check not assessed, never passed.",
    evidence: [SERVICE_STATUS, SERVICES, SETTINGS_SQL],
    condition: `${FEDERATION_SERVICE} is STARTED (federation in use) and the policy is not deny-by-default (XmppFederationPolicy is not deny) or no partner domain is listed.`,
    evaluate(r) {
      return whereFederated(r, () => {
        const policy = setting(r.settings, 'XmppFederationPolicy');
        const domains = setting(r.settings, 'XmppFederationAllowedDomains');
        if (policy.length === 0 || domains.length === 0)
          return cannotJudge(
            `${policy.length === 0 ? 'XmppFederationPolicy' : 'XmppFederationAllowedDomains'} not set, so an open federation policy cannot be ruled out`,
          );
        const problems: string[] = [];
        if (policy.some((p) => p.toLowerCase() !== 'deny'))
          problems.push(`federation policy ${policy.join(', ')} (any domain may federate)`);
        if (!domains.some((d) => d.trim() !== '')) problems.push('no partner domain listed');
        return joined(problems);
      });
    },
    severity: 'medium',
    remediation:
      'Set the XMPP federation policy to Deny and list the partner domains as policy exceptions (Presence > Inter-Domain Federation > XMPP Federation > Policy); review the list yearly.',
  },
  {
    id: 'IMP-FED-03',
    topic: 'xmpp-federation',
    title: 'Federated servers must present a valid certificate',
    rationale:
      'TLS without certificate validation encrypts the link but lets any server claim a partner domain; with "Require client-side security certificates" the node checks the peer against a trusted root CA before exchanging chat and presence.',
    references: [REF.XMPP_FEDERATION, REF.IMP_CERTIFICATE_TYPES],
    unverified:
      'processconfig name `XmppFederationRequireClientCerts` is the lab\'s stand-in for the XMPP federation setting "Require client-side security certificates": where IM&P stores it has no public source. A missing row leaves the check not assessed, never passed.',
    evidence: [SERVICE_STATUS, SERVICES, SETTINGS_SQL],
    condition: `${FEDERATION_SERVICE} is STARTED (federation in use) and XmppFederationRequireClientCerts is not T.`,
    evaluate(r) {
      return whereFederated(r, () =>
        requiredOn(
          r.settings,
          'XmppFederationRequireClientCerts',
          'federated servers are not required to present a certificate the node validates',
        ),
      );
    },
    severity: 'medium',
    remediation:
      'Check "Require client-side security certificates" in the XMPP federation settings (Presence > Inter-Domain Federation > XMPP Federation > Settings) and upload each partner\'s root CA to cup-xmpp-trust; restart Cisco XCP Router and Cisco XCP XMPP Federation Connection Manager.',
  },
  {
    id: 'IMP-HA-01',
    topic: 'ha',
    title: 'High availability is on for every presence redundancy group',
    rationale:
      'Without high availability, or with one node in a group, the failure of a node signs all of its users out of chat and presence until it returns.',
    references: [REF.HIGH_AVAILABILITY, REF.AXL_PRESENCE_REDUNDANCY_GROUP],
    evidence: [
      {
        id: 'groups',
        tool: 'imp_axl_call',
        args: {
          host: '{host}',
          operation: 'listPresenceRedundancyGroup',
          args: {
            searchCriteria: { name: '%' },
            returnedTags: { name: '', server1: '', server2: '', haEnabled: '' },
          },
        },
        purpose: 'every presence redundancy group, its two servers and whether high availability is on',
      },
    ],
    condition:
      'a presence redundancy group has high availability off or no second server, or no group is configured.',
    evaluate(r) {
      const groups = rowsOf(r.groups);
      if (groups.length === 0) return 'no presence redundancy group configured';
      const problems: string[] = [];
      for (const g of groups) {
        const name = String(g.name);
        if (!isTrue(g.haEnabled)) problems.push(`${name}: high availability off`);
        if (fkName(g.server2) === '') problems.push(`${name}: no second server`);
      }
      return joined(problems);
    },
    severity: 'medium',
    remediation:
      'Add a second IM and Presence node to each presence redundancy group and enable high availability (System > Presence Redundancy Groups), in a maintenance window; check `utils ha status` afterwards.',
  },
];

export const IMP_CHECKLIST: Checklist = {
  product: 'imp',
  prompt: 'imp_security_audit',
  title: 'IM and Presence security audit',
  guide: 'Cisco Unified Communications Manager IM and Presence Service security guide, release 15',
  topics: TOPICS,
  checks: CHECKS,
};
