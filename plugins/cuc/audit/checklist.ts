// The Unity Connection security audit as data: what each check reads (CUPI lists and read-only VOS CLI
// commands, the calls an agent makes), when it is a finding, how bad that is and how to fix it. The
// prompt, the security-guide chapters and the scripted test runs all render from this one list.
//
// Evidence calls cannot depend on one another (the arguments are fixed, with only {host} bound), so
// anything per object (each user's PIN flags, each restriction table's dial strings, each user's roles)
// is read in one call from a unitydirdb view with `run cuc dbquery unitydirdb select ...` (the CLI
// Reference's way to print rows; `show cuc dbview contents` only writes a CSV file), and joined here
// with the CUPI list that names the objects. The sources for every name are in references.ts.
import {
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
  excerpt,
  outputOf,
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
import * as R from './references.ts';

const DAY_MS = 86_400_000;

// ---- Evidence calls (shared between checks: identical calls run once) ----

const cli = (id: string, command: string, purpose: string): EvidenceCall => ({
  id,
  tool: 'cuc_os_run_command',
  args: { host: '{host}', command },
  purpose,
});

const cupiList = (id: string, resource: string, purpose: string): EvidenceCall => ({
  id,
  tool: 'cuc_cupi_list',
  // One page as large as CUPI allows: the checks judge every object, not the first hundred.
  args: { host: '{host}', resource, rowsPerPage: 2000 },
  purpose,
});

const E = {
  maxAge: cli('maxAge', 'show password expiry maximum-age', 'OS administrator password maximum age'),
  minAge: cli('minAge', 'show password expiry minimum-age', 'OS administrator password minimum age'),
  ntp: cli('ntp', 'utils ntp status', 'whether the clock is synchronised to an NTP server'),
  tls: cli('tls', 'show tls min-version', 'the lowest TLS version the node accepts'),
  fips: cli('fips', 'utils fips status', 'whether the node runs in FIPS mode'),
  // Parsed by cuc_cert_list: the list (who issued each) and each certificate's validity, one call.
  certs: certListEvidence('cuc', 'certs'),
  serviceStatus: serviceStatusEvidence('cuc', 'serviceStatus'),
  // The fallback of the service checks when Control Center cannot be read.
  services: cli('services', 'utils service list', 'which services run and which are not activated'),
  drf: drfStatusEvidence('cuc', 'drf'),
  // Named columns only: a credential view also holds each PIN's and password's hash, never read.
  credentials: cli(
    'credentials',
    'run cuc dbquery unitydirdb select userobjectid, credentialtype, credmustchange, doesntexpire, timechanged from vw_credential',
    'every PIN and password credential: must-change, never-expires and last-changed flags, never the PIN itself',
  ),
  roles: cli(
    'roles',
    'run cuc dbquery unitydirdb select userobjectid, alias, rolename from vw_policy',
    'every role assignment: account and role name',
  ),
  patterns: cli(
    'patterns',
    'run cuc dbquery unitydirdb select restrictiontableobjectid, sequencenumber, blocked, numberpattern from vw_restrictionpattern',
    'every dial string of every restriction table, in order, with its blocked flag',
  ),
  policies: cupiList(
    'policies',
    'authenticationrules',
    'the voicemail PIN and web-application authentication rules: length, trivial checks, expiry, history, lockout',
  ),
  users: cupiList('users', 'users', 'every user: alias, extension and creation time'),
  tables: cupiList('tables', 'restrictiontables', 'restriction tables: names, minimum and maximum digits'),
  coses: cupiList(
    'coses',
    'coses',
    'every class of service: its name and whether it grants the Web Inbox (AccessVmi)',
  ),
  cumi: {
    id: 'cumi',
    tool: 'cuc_cupi_list',
    args: {
      host: '{host}',
      resource: 'configurationvalues',
      query: '(fullname startswith System.API.Cumi)',
      rowsPerPage: 2000,
    },
    purpose:
      'the API settings that decide what CUMI clients (Web Inbox, Jabber) may fetch of secure messages',
  } satisfies EvidenceCall,
};

// ---- Reading the evidence ----

type Row = Record<string, string>;

/** The objects of a cuc_cupi_list answer, every value as text. */
function itemsOf(r: EvidenceResult | undefined): Row[] {
  if (!r?.ok || !Array.isArray(r.data.items)) return [];
  return (r.data.items as unknown[])
    .filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
    .map((x) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, typeof v === 'string' ? v : ''])));
}

/**
 * The rows of a `show cuc dbview contents` (or `run cuc dbquery`) answer. Columns are found from the
 * rule of dashes under the header, so values with spaces ("Default Transfer") stay whole.
 */
export function dbRows(output: string): Row[] {
  const lines = output.split('\n').map((l) => l.replace(/\s+$/, ''));
  const ruleAt = lines.findIndex((l) => /^-+( +-+)*$/.test(l.trim()) && l.trim() !== '');
  if (ruleAt < 1) return [];
  const header = lines[ruleAt - 1] ?? '';
  const rule = lines[ruleAt] ?? '';
  const spans: [number, number][] = [];
  for (const m of rule.matchAll(/-+/g)) spans.push([m.index, m.index + m[0].length]);
  const cut = (line: string, i: number): string => {
    const [start] = spans[i] ?? [0, 0];
    const end = spans[i + 1]?.[0] ?? line.length;
    return line.slice(start, end).trim();
  };
  const columns = spans.map((_, i) => cut(header, i).toLowerCase());
  return lines
    .slice(ruleAt + 1)
    .filter((l) => l.trim() !== '')
    .map((l) => Object.fromEntries(columns.map((c, i) => [c, cut(l, i)])));
}

/**
 * The rows of a `run cuc dbquery` answer when it is a result naming every column asked for, [] for "No
 * records found", and undefined for anything else: an SQL error (a view or column name the node does
 * not have) or an answer in another form. The caller then does not judge, so an unknown name is never
 * read as an empty, passing result.
 */
export function dbAnswer(r: EvidenceResult | undefined, columns: readonly string[]): Row[] | undefined {
  const output = outputOf(r);
  const rows = dbRows(output);
  if (rows.length === 0) return /^\s*No records found\s*$/im.test(output) ? [] : undefined;
  const first = rows[0] ?? {};
  return columns.every((c) => c in first) ? rows : undefined;
}

/** The columns each dbquery evidence call selects: an answer without them is not judged. */
const CREDENTIAL_COLUMNS = [
  'userobjectid',
  'credentialtype',
  'credmustchange',
  'doesntexpire',
  'timechanged',
];
const ROLE_COLUMNS = ['userobjectid', 'alias', 'rolename'];
const PATTERN_COLUMNS = ['restrictiontableobjectid', 'sequencenumber', 'blocked', 'numberpattern'];

/** A unitydirdb time stamp (`2025-10-18 07:39:58.265`, UTC) or a CUPI one, as milliseconds. */
function timeOf(stamp: string | undefined): number {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)/.exec(stamp ?? '');
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

/** Whether an authentication rule governs voicemail PINs, told by its name (the others govern web passwords). */
const isPinRule = (p: Row): boolean => /voice ?mail|\bpin\b/i.test(p.DisplayName ?? '');

/** The authentication rules for voicemail PINs or for web-application passwords. */
function policiesOf(r: EvidenceResult | undefined, kind: 'pin' | 'password'): Row[] {
  return itemsOf(r).filter((p) => (kind === 'pin' ? isPinRule(p) : !isPinRule(p)));
}

/**
 * A finding for every policy of the kind that fails `bad`, or a finding when there is none to judge
 * (an audit never passes what it could not see).
 */
function policyCheck(
  r: EvidenceResult | undefined,
  kind: 'pin' | 'password',
  bad: (p: Row) => string | undefined,
): string | undefined {
  const policies = policiesOf(r, kind);
  if (policies.length === 0)
    return `no ${kind === 'pin' ? 'voicemail PIN' : 'web-application'} authentication rule found`;
  const failing = policies
    .map((p) => [p.DisplayName ?? '?', bad(p)] as const)
    .filter(([, why]) => why !== undefined);
  return failing.length === 0 ? undefined : failing.map(([name, why]) => `${name}: ${why}`).join('; ');
}

const num = (v: string | undefined): number => (v === undefined || v.trim() === '' ? NaN : Number(v));

/** Users by ObjectId. */
function usersById(r: EvidenceResult | undefined): Map<string, Row> {
  return new Map(itemsOf(r).map((u) => [u.ObjectId ?? '', u]));
}

/** PIN credentials (credential type 4) from vw_credential; undefined when the answer is not a result. */
function pinRows(r: EvidenceResult | undefined): Row[] | undefined {
  return dbAnswer(r, CREDENTIAL_COLUMNS)?.filter((c) => c.credentialtype === '4');
}

const UNREAD_CREDENTIALS = cannotJudge(
  'the vw_credential answer is not a result with the columns asked for (an SQL error or another form)',
);

/** A voicemail user: has an extension (admin-only accounts have none). */
const hasMailbox = (u: Row | undefined): boolean => (u?.DtmfAccessId ?? '').trim() !== '';

const listNames = (names: string[]): string =>
  names.length > 8 ? `${names.slice(0, 8).join(', ')} and ${names.length - 8} more` : names.join(', ');

/** The numbers the restriction-table checks dial in thought, with the access code 9 the shipped tables assume. */
export const PROBES = {
  international: '9011442079460000',
  longDistance: '912125550100',
} as const;

/** Whether a CUC dial-string pattern matches a number: `*` is zero or more digits, `?` exactly one. */
export function patternMatches(pattern: string, number: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(number);
}

/**
 * The restriction tables (by name) that let `number` through: too short or too long is refused, else
 * the first dial string that matches decides, in sequence order. Tables for alternate extensions are
 * left out: they limit which numbers users may register, not what Connection dials.
 */
export function tablesAllowing(
  tables: EvidenceResult | undefined,
  patterns: EvidenceResult | undefined,
  number: string,
): string[] {
  const rows = dbRows(outputOf(patterns));
  return itemsOf(tables)
    .filter((t) => !/alternate extension/i.test(t.DisplayName ?? ''))
    .filter((t) => {
      const min = num(t.MinDigits);
      const max = num(t.MaxDigits);
      if ((!Number.isNaN(min) && number.length < min) || (!Number.isNaN(max) && number.length > max))
        return false;
      const own = rows
        .filter((p) => p.restrictiontableobjectid === t.ObjectId)
        .sort((a, b) => num(a.sequencenumber) - num(b.sequencenumber));
      const first = own.find((p) => patternMatches(p.numberpattern ?? '', number));
      // No dial string matches: nothing stops the number (Connection's own tables end in `*`).
      return first === undefined || first.blocked !== '1';
    })
    .map((t) => t.DisplayName ?? '?');
}

const UNREAD_PATTERNS = cannotJudge(
  'the vw_restrictionpattern answer is not a result with the columns asked for (an SQL error or another form)',
);

/** Service states: Control Center's when it was read, else `utils service list`. */
function statesOf(r: Record<string, EvidenceResult>): Map<string, string> {
  return serviceStateMap(r.serviceStatus, () => serviceStates(outputOf(r.services)));
}

/** Lines of `utils service list` as name to state (`STARTED`, `STOPPED`). */
function serviceStates(output: string): Map<string, string> {
  const out = new Map<string, string>();
  // Some releases pad the state (`[ STOPPED ]  Component is not running`).
  for (const m of output.matchAll(/^(.+?)\[\s*([A-Z]+)\s*\]/gm)) out.set(m[1]!.trim(), m[2]!);
  return out;
}

// ---- Topics (the security-guide chapters) ----

const TOPICS: Topic[] = [
  {
    id: 'platform',
    title: 'Platform and OS hardening',
    summary:
      'Unity Connection runs on the same hardened Linux appliance as the other Cisco collaboration products, administered through the VOS command line and the OS administration pages. ' +
      'What the customer controls there is mostly about the platform administrator accounts and time: the OS password should age out and not be changed back at once, and the clock must follow NTP, because certificates, single sign-on, logs and message time stamps all depend on it.',
  },
  {
    id: 'tls',
    title: 'TLS and ciphers',
    summary:
      "Every secure interface of the node (the administration and user web pages, CUPI, IMAP and SMTP with TLS, SIP over TLS) shares one floor for the TLS version. TLS 1.0 and 1.1 are deprecated and carry known weaknesses; the node's floor should be 1.2 unless an old client or integration has been shown to need less, in which case the exception is recorded.",
  },
  {
    id: 'fips',
    title: 'FIPS mode',
    summary:
      'FIPS mode restricts the node to validated cryptographic modules and algorithms and runs self tests at start. It is required in some regulated environments and is a useful baseline elsewhere. Enabling it regenerates certificates and reboots the node, so it is planned as a change, and every node of a cluster must agree.',
  },
  {
    id: 'certificates',
    title: 'Certificates and expiry',
    summary:
      "The tomcat certificate protects the web administration, the user web tools and CUPI. A self-signed certificate teaches users and integrations to accept warnings, and an expired one breaks API clients and phones that fetch over HTTPS. It should be issued by the organisation's CA and renewed well before it runs out; the Certificate Expiry Monitor service can warn, but only if someone reads its alerts.",
  },
  {
    id: 'voicemail-pins',
    title: 'Voicemail PIN policy and mailbox PINs',
    summary:
      'The voicemail PIN is the only thing between a caller and a mailbox: the telephone user interface can be reached from outside, PINs are short and numeric, and a mailbox that opens lets an attacker listen to messages, change greetings or set up call forwarding for toll fraud. ' +
      'The PIN policy sets the minimum length, refuses trivial PINs (repeated or consecutive digits, the extension), sets expiry and history, and locks the mailbox after a few wrong attempts. Individual mailboxes must not keep the PIN they were created with, nor be exempt from expiry.',
  },
  {
    id: 'accounts',
    title: 'Privileged accounts and roles',
    summary:
      'Administration in Unity Connection is granted by roles (System Administrator, User Administrator, Help Desk Administrator, Audit Administrator, Remote Administrator, Mailbox Access Delegate and others), and a role works everywhere the account can sign in: the administration pages and CUPI alike. ' +
      'Administrator roles belong on dedicated administration accounts. An end user with a mailbox signs in by phone with a short PIN and is a frequent phishing target, so an administrator role on such an account widens the attack surface of the whole system. Recording greetings by phone (Greeting Administrator) is the usual exception.',
  },
  {
    id: 'cupi',
    title: 'CUPI exposure and administrator passwords',
    summary:
      'CUPI, the provisioning REST API under /vmrest, accepts any account with an administrator role over HTTP Basic authentication, with no second factor, from anywhere that can reach the web port. Its protection is therefore the web-application password policy: long passwords, a lockout after repeated failures so the API cannot be used to guess them, and expiry and history so a leaked password does not stay valid for ever. ' +
      "Limit which networks reach the node's HTTPS port and give integrations their own accounts with the narrowest role that works. " +
      'CUMI, the messaging API behind Web Inbox and Jabber voicemail, should not hand out the recordings of secure messages, which are meant to stay on the server. ' +
      'Web Inbox, granted per class of service and on by default, is itself web attack surface: Cisco names it as the condition of an unauthenticated server-side request forgery (cisco-sa-unity-rce-ssrf-hENhuASy), so it belongs only in the classes of service whose users need it, on a fixed release.',
  },
  {
    id: 'services',
    title: 'Activated services',
    summary:
      'Every activated service is attack surface and patching work. Services that only support a tool the site does not use should be deactivated in Cisco Unified Serviceability; the Platform Administrative Web Service, for example, serves only Prime Collaboration Deployment and can be activated for the duration of such a task.',
  },
  {
    id: 'audit-logging',
    title: 'Audit logging',
    summary:
      'Application audit logs record who changed what through the administration pages, CUPI and the CLI, and who signed in. They are what an investigation starts from. The Cisco Audit Event Service must run for them to be written, and the logs should be forwarded to a remote syslog server so they survive a compromise of the node.',
  },
  {
    id: 'backups',
    title: 'Backups',
    summary:
      "The Disaster Recovery System backs up the directory, greetings and the message store to an SFTP server. Without a recent backup a failed disk, a bad upgrade or ransomware on the storage loses every mailbox and the whole configuration. Backups should run on a schedule at least weekly (nightly is usual) and the results be checked; each run leaves a log per component in the node's DRF log folder.",
  },
  {
    id: 'restriction-tables',
    title: 'Restriction tables',
    summary:
      "Restriction tables decide which numbers Unity Connection will dial on a user's or caller's behalf: call transfers, message notification, fax delivery, and system transfers that unidentified callers can request. Dial strings are compared in order and the first match decides; the last one is always `*`. " +
      'An open table turns the voicemail system into a free dial-out service for toll fraud, most damagingly the system transfer table, which requires no sign-in. Tables should allow what the organisation needs (internal extensions, perhaps local numbers) and block everything else.',
  },
];

// ---- Checks ----

const CHECKS: Check[] = [
  {
    id: 'CUC-OS-01',
    topic: 'platform',
    title: 'OS administrator password never expires',
    rationale:
      'A platform administrator password that never expires stays valid however widely it has been shared or exposed.',
    evidence: [E.maxAge],
    condition: 'Password maximum age is disabled, set above 90 days.',
    evaluate: (r) => {
      const out = outputOf(r.maxAge);
      const days = passwordAgeDays(out);
      if (days === undefined) return cannotJudge(`unrecognised output: ${excerpt(out)}`);
      if (days === 0) return 'password expiry maximum age is disabled';
      return days > 90 ? `maximum age is ${days} days` : undefined;
    },
    severity: 'medium',
    references: [R.CLI_SHOW_PASSWORD_EXPIRY],
    unverified: PASSWORD_AGE_UNVERIFIED,
    remediation:
      'Set a maximum age of 90 days or less with `set password expiry maximum-age 90` (and the user variant for other OS accounts).',
  },
  {
    id: 'CUC-OS-02',
    topic: 'platform',
    title: 'OS administrator password can be changed back at once',
    rationale:
      'Without a minimum age a forced password change can be undone immediately by changing it several times back to the old value.',
    evidence: [E.minAge],
    condition: 'Password minimum age is disabled (0).',
    evaluate: (r) => {
      const out = outputOf(r.minAge);
      const days = passwordAgeDays(out);
      if (days === undefined) return cannotJudge(`unrecognised output: ${excerpt(out)}`);
      return days === 0 ? 'password expiry minimum age is disabled' : undefined;
    },
    severity: 'low',
    references: [R.CLI_SHOW_PASSWORD_EXPIRY],
    unverified: PASSWORD_AGE_UNVERIFIED,
    remediation: 'Set a minimum age of at least one day with `set password expiry minimum-age 1`.',
  },
  {
    id: 'CUC-OS-03',
    topic: 'platform',
    title: 'Clock not synchronised to NTP',
    rationale:
      'Certificate validity, single sign-on, log correlation and message time stamps all depend on the clock being right.',
    evidence: [E.ntp],
    condition: 'utils ntp status reports the node unsynchronised.',
    evaluate: (r) => ntpVerdict(outputOf(r.ntp)),
    severity: 'medium',
    references: [R.NTP_STATUS],
    remediation:
      'Configure at least one reachable NTP server in OS administration (or `utils ntp server add`) and check `utils ntp status` again.',
  },
  {
    id: 'CUC-TLS-01',
    topic: 'tls',
    title: 'TLS versions below 1.2 accepted',
    rationale: 'TLS 1.0 and 1.1 are deprecated and open to downgrade and cipher attacks.',
    evidence: [E.tls],
    condition: 'The configured minimum TLS version is below 1.2.',
    evaluate: (r) => {
      const v = /minimum version:\s*([\d.]+)/i.exec(outputOf(r.tls))?.[1];
      if (v === undefined) return cannotJudge('the minimum TLS version could not be read');
      return Number(v) < 1.2 ? `minimum TLS version is ${v}` : undefined;
    },
    severity: 'high',
    references: [R.CLI_TLS_MIN_VERSION],
    remediation:
      'Raise the floor with `set tls min-version 1.2` on every node (a reboot follows) after checking that integrations and clients support TLS 1.2.',
  },
  {
    id: 'CUC-FIPS-01',
    topic: 'fips',
    title: 'FIPS mode not enabled',
    rationale: 'Outside FIPS mode the node may use cryptography that has not been validated.',
    evidence: [E.fips],
    condition: 'The FIPS status says the system operates in NON-FIPS mode.',
    evaluate: (r) => fipsVerdict(outputOf(r.fips)),
    severity: 'medium',
    references: [R.FIPS_GUIDE],
    unverified: FIPS_STATUS_UNVERIFIED,
    remediation:
      'Where policy requires it, plan a maintenance window and run `utils fips enable` on each node (certificates are regenerated and the node reboots).',
  },
  {
    id: 'CUC-CRT-01',
    topic: 'certificates',
    title: 'Web (tomcat) certificate is self-signed',
    rationale:
      'A self-signed web certificate cannot be verified by browsers and API clients, which teaches them to accept any certificate.',
    evidence: [E.certs],
    condition: 'The tomcat certificate is listed as self-signed, or is missing from the list.',
    evaluate: (r) => {
      const line = /^tomcat\/tomcat\.pem:\s*(.*)$/im.exec(certListText(r.certs));
      if (!line) return 'tomcat/tomcat.pem is not in the list of own certificates';
      return /self-signed/i.test(line[1] ?? '') ? `tomcat certificate: ${line[1]?.trim() ?? ''}` : undefined;
    },
    severity: 'medium',
    references: [R.SSL_GUIDE, R.CLI_SHOW_CERT, R.CERT_LIST_OWN, R.SELF_SIGNED_DESCRIPTION],
    remediation:
      "Generate a CSR for tomcat in OS administration (Certificate Management), have the organisation's CA sign it, upload it as tomcat and restart Cisco Tomcat.",
  },
  {
    id: 'CUC-CRT-02',
    topic: 'certificates',
    title: 'Web (tomcat) certificate expires within 30 days',
    rationale: 'An expired tomcat certificate breaks CUPI clients, web access and single sign-on.',
    evidence: [E.certs],
    condition: 'The tomcat certificate expires in fewer than 30 days (or has expired).',
    evaluate: (r) => {
      const end = certExpiry(r.certs, 'tomcat/tomcat.pem');
      if (!end) return cannotJudge('the end of validity of tomcat.pem could not be read');
      const days = Math.floor((end.getTime() - Date.now()) / DAY_MS);
      return days < 30 ? (days < 0 ? `expired ${-days} days ago` : `expires in ${days} days`) : undefined;
    },
    severity: 'high',
    references: [R.SSL_GUIDE, R.CLI_SHOW_CERT, R.SHOW_CERT_OWN_FILE, R.CERT_OWN_VALIDITY],
    remediation:
      'Renew the tomcat certificate now (CA-signed, see CUC-CRT-01) and keep the Certificate Expiry Monitor alerts going to someone who acts on them.',
  },
  {
    id: 'CUC-PIN-01',
    topic: 'voicemail-pins',
    title: 'Minimum PIN length below 6 digits',
    rationale: 'Short numeric PINs are guessed quickly by hand or by an automated dialer.',
    evidence: [E.policies],
    condition:
      'A voicemail PIN authentication rule (one whose name mentions Voice Mail or PIN) has a minimum length below 6, or no such rule is found.',
    evaluate: (r) =>
      policyCheck(r.policies, 'pin', (p) =>
        !(num(p.MinLength) >= 6) ? `minimum length ${p.MinLength ?? 'unset'}` : undefined,
      ),
    severity: 'high',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      'Set the minimum PIN length to at least 6 (8 is better) in the voicemail PIN authentication rule; users are asked for a longer PIN at their next change.',
  },
  {
    id: 'CUC-PIN-02',
    topic: 'voicemail-pins',
    title: 'Trivial PINs allowed',
    rationale:
      'Without the trivial-PIN check users may choose 12345, 1111 or their own extension, the first guesses of any attacker.',
    evidence: [E.policies],
    condition: 'A voicemail PIN authentication rule does not check for trivial PINs.',
    evaluate: (r) =>
      policyCheck(r.policies, 'pin', (p) =>
        p.TrivialCredChecking !== 'true' ? 'trivial PIN checks are off' : undefined,
      ),
    severity: 'high',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation: 'Enable the check for trivial PINs in the voicemail PIN authentication rule.',
  },
  {
    id: 'CUC-PIN-03',
    topic: 'voicemail-pins',
    title: 'PINs never expire (by policy)',
    rationale: 'A PIN that never has to change stays valid after it has been overheard or shared.',
    evidence: [E.policies],
    condition: 'A voicemail PIN authentication rule has no expiry (0 days) or one longer than 180 days.',
    evaluate: (r) =>
      policyCheck(r.policies, 'pin', (p) => {
        const days = num(p.MaxDays);
        return !(days > 0 && days <= 180) ? `expiry ${p.MaxDays ?? 'unset'} days` : undefined;
      }),
    severity: 'medium',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation: 'Set PIN expiry to 180 days or less in the voicemail PIN authentication rule.',
  },
  {
    id: 'CUC-PIN-04',
    topic: 'voicemail-pins',
    title: 'No lockout after wrong PINs',
    rationale:
      'Without a lockout an attacker can try PINs over the phone without limit, the classic route into mailboxes for toll fraud.',
    evidence: [E.policies],
    condition:
      'A voicemail PIN authentication rule allows unlimited failed sign-in attempts (0) or more than 10.',
    evaluate: (r) =>
      policyCheck(r.policies, 'pin', (p) => {
        const hacks = num(p.MaxHacks);
        return !(hacks > 0 && hacks <= 10)
          ? `failed attempts before lockout: ${p.MaxHacks ?? 'unset'}`
          : undefined;
      }),
    severity: 'high',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      'Lock the mailbox after 3 to 5 failed PIN attempts, for at least 30 minutes or until an administrator unlocks it.',
  },
  {
    id: 'CUC-PIN-05',
    topic: 'voicemail-pins',
    title: 'PIN history not kept',
    rationale: 'Without a history users answer a forced change by choosing their previous PIN again.',
    evidence: [E.policies],
    condition: 'A voicemail PIN authentication rule remembers fewer than 5 previous PINs.',
    evaluate: (r) =>
      policyCheck(r.policies, 'pin', (p) =>
        !(num(p.PrevCredCount) >= 5) ? `previous PINs remembered: ${p.PrevCredCount ?? 'unset'}` : undefined,
      ),
    severity: 'low',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation: 'Remember at least the last 5 PINs in the voicemail PIN authentication rule.',
  },
  {
    id: 'CUC-PIN-06',
    topic: 'voicemail-pins',
    title: 'Mailboxes still on the PIN they were created with',
    rationale:
      'The first PIN comes from the user template and is usually the same for many mailboxes; if it was never changed and the user is not forced to change it, anyone who knows the template PIN can open those mailboxes.',
    evidence: [E.users, E.credentials],
    condition:
      "A user with a mailbox has a PIN last changed within a day of the account's creation and is not required to change it at the next sign-in.",
    evaluate: (r) => {
      const users = usersById(r.users);
      const pins = pinRows(r.credentials);
      if (pins === undefined) return UNREAD_CREDENTIALS;
      const stale = pins
        .filter((c) => c.credmustchange !== '1')
        .map((c) => [users.get(c.userobjectid ?? ''), c] as const)
        .filter(([u, c]) => hasMailbox(u) && timeOf(c.timechanged) - timeOf(u?.CreationTime) < DAY_MS)
        .map(([u]) => u?.Alias ?? '?');
      return stale.length === 0
        ? undefined
        : `${stale.length} mailbox${stale.length === 1 ? '' : 'es'} with the PIN set at creation and no forced change: ${listNames(stale)}`;
    },
    severity: 'critical',
    references: [R.INITIAL_PINS_GUIDE, R.CUPI_USERS, R.CUPI_PIN_SETTINGS, R.CLI_RUN_CUC_DBQUERY],
    unverified:
      "The unitydirdb view `vw_credential` has no public source; its columns are read under the names of the CUPI Credential object's fields (UserObjectId, CredentialType 4 = PIN, CredMustChange, TimeChanged), which the CUPI guide confirms. Searched for it: the CLI Reference's `show cuc dbview`/`dbtable` examples (vw_cos, tbl_cos), Cisco TAC notes that run `run cuc dbquery unitydirdb` (vw_user, vw_subscriber, vw_configuration, vw_restrictiontable, vw_restrictionpattern, vw_mailbox, vw_usermailboxmap) and public scripts; none names it, and no public unitydirdb data dictionary was found. CUPI gives the same flags only per user (/vmrest/users/<id>/credential/pin), which fixed evidence calls cannot make. Where the node has no such view or columns, the answer is not a result and the check is not assessed, never passed.",
    remediation:
      'Give each affected mailbox a unique PIN or set "User must change at next sign-in" (the Bulk Password Edit tool does this in bulk), and make the user templates require a change at first sign-in.',
  },
  {
    id: 'CUC-PIN-07',
    topic: 'voicemail-pins',
    title: 'Mailbox PINs exempt from expiry',
    rationale: 'A per-user "does not expire" flag overrides the policy, so those PINs never have to change.',
    evidence: [E.users, E.credentials],
    condition: "A user's voicemail PIN is marked as never expiring.",
    evaluate: (r) => {
      const users = usersById(r.users);
      const pins = pinRows(r.credentials);
      if (pins === undefined) return UNREAD_CREDENTIALS;
      const exempt = pins
        .filter((c) => c.doesntexpire === '1')
        .map((c) => users.get(c.userobjectid ?? '')?.Alias ?? c.userobjectid ?? '?');
      return exempt.length === 0
        ? undefined
        : `${exempt.length} PIN${exempt.length === 1 ? '' : 's'} set never to expire: ${listNames(exempt)}`;
    },
    severity: 'medium',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_USERS, R.CUPI_PIN_SETTINGS, R.CLI_RUN_CUC_DBQUERY],
    unverified:
      "The unitydirdb view `vw_credential` has no public source; its columns are read under the names of the CUPI Credential object's fields (UserObjectId, CredentialType 4 = PIN, DoesntExpire), which the CUPI guide confirms. Searched for it: the CLI Reference's `show cuc dbview`/`dbtable` examples (vw_cos, tbl_cos), Cisco TAC notes that run `run cuc dbquery unitydirdb` (vw_user, vw_subscriber, vw_configuration, vw_restrictiontable, vw_restrictionpattern, vw_mailbox, vw_usermailboxmap) and public scripts; none names it, and no public unitydirdb data dictionary was found. CUPI gives the same flag only per user (/vmrest/users/<id>/credential/pin), which fixed evidence calls cannot make. Where the node has no such view or columns, the answer is not a result and the check is not assessed, never passed.",
    remediation:
      'Clear "Does not expire" on the PIN settings of these users (CUPI PUT /vmrest/users/<id>/credential/pin with DoesntExpire false) so the PIN policy applies.',
  },
  {
    id: 'CUC-PIN-08',
    topic: 'voicemail-pins',
    title: 'PINs may be changed again at once',
    rationale:
      'Without a minimum time between changes a user answers a forced change by changing the PIN several times in a row until the history no longer holds the old one, and keeps the old PIN.',
    evidence: [E.policies],
    condition:
      'A voicemail PIN authentication rule has no minimum duration between changes (MinDuration 0 minutes).',
    evaluate: (r) =>
      policyCheck(r.policies, 'pin', (p) =>
        !(num(p.MinDuration) > 0)
          ? `minimum minutes between changes: ${p.MinDuration ?? 'unset'}`
          : undefined,
      ),
    severity: 'low',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      'Set a minimum duration of at least one day (1440 minutes, as the shipped rule does) in the voicemail PIN authentication rule, together with a PIN history (CUC-PIN-05).',
  },
  {
    id: 'CUC-ACC-01',
    topic: 'accounts',
    title: 'End users with mailboxes hold administrator roles',
    rationale:
      'An administrator role on a mailbox user gives full administration and CUPI access to an everyday account that signs in by phone and is a common phishing target.',
    evidence: [E.users, E.roles],
    condition: 'A user with an extension (a mailbox user) holds any role other than Greeting Administrator.',
    evaluate: (r) => {
      const users = usersById(r.users);
      const roles = dbAnswer(r.roles, ROLE_COLUMNS);
      if (roles === undefined)
        return cannotJudge(
          'the vw_policy answer is not a result with the columns asked for (an SQL error or another form)',
        );
      const held = roles
        .filter((p) => hasMailbox(users.get(p.userobjectid ?? '')) && p.rolename !== 'Greeting Administrator')
        .map((p) => `${users.get(p.userobjectid ?? '')?.Alias ?? p.alias ?? '?'} (${p.rolename ?? '?'})`);
      return held.length === 0 ? undefined : `mailbox users with administrator roles: ${listNames(held)}`;
    },
    severity: 'high',
    references: [R.CUPI_USERS, R.CUPI_ROLES, R.CLI_RUN_CUC_DBQUERY],
    unverified:
      "The unitydirdb view `vw_policy` (one row per role a user holds: userobjectid, alias, rolename) has no public source. Searched for it: the CLI Reference's `show cuc dbview`/`dbtable` examples (vw_cos, tbl_cos), Cisco TAC notes that run `run cuc dbquery unitydirdb` (vw_user, vw_subscriber, vw_configuration, vw_restrictiontable, vw_restrictionpattern, vw_mailbox, vw_usermailboxmap) and public scripts; none names it, and no public unitydirdb data dictionary was found. CUPI confirms the same assignment as `/vmrest/users/<id>/userroles` with RoleName, one request per user, which fixed evidence calls cannot make; the CUPI roles API lists roles and their privileges, not their holders. Where the node has no such view or columns, the answer is not a result and the check is not assessed, never passed.",
    remediation:
      'Remove the roles from the mailbox accounts and give the people who administer the system separate administration accounts without mailboxes.',
  },
  {
    id: 'CUC-API-01',
    topic: 'cupi',
    title: 'Web-application passwords may be shorter than 12 characters',
    rationale:
      'Administrator accounts reach CUPI with HTTP Basic authentication and nothing else; short passwords can be guessed or cracked.',
    evidence: [E.policies],
    condition:
      'A web-application authentication rule (any rule not named for Voice Mail or PIN) has a minimum length below 12, or no such rule is found.',
    evaluate: (r) =>
      policyCheck(r.policies, 'password', (p) =>
        !(num(p.MinLength) >= 12) ? `minimum length ${p.MinLength ?? 'unset'}` : undefined,
      ),
    severity: 'high',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      'Set a minimum password length of at least 12 (14 is better) in the web-application authentication rule.',
  },
  {
    id: 'CUC-API-02',
    topic: 'cupi',
    title: 'No lockout after failed web sign-ins',
    rationale:
      'Without a lockout CUPI can be used to try passwords against administrator accounts without limit.',
    evidence: [E.policies],
    condition: 'A web-application authentication rule allows unlimited failed attempts (0) or more than 10.',
    evaluate: (r) =>
      policyCheck(r.policies, 'password', (p) => {
        const hacks = num(p.MaxHacks);
        return !(hacks > 0 && hacks <= 10)
          ? `failed attempts before lockout: ${p.MaxHacks ?? 'unset'}`
          : undefined;
      }),
    severity: 'high',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      'Lock accounts after 3 to 5 failed sign-ins for at least 30 minutes in the web-application authentication rule, and restrict which networks reach the HTTPS port.',
  },
  {
    id: 'CUC-API-03',
    topic: 'cupi',
    title: 'Web-application passwords never expire or may be reused',
    rationale:
      'An administrator password that never changes, or comes straight back, stays valid after it leaks.',
    evidence: [E.policies],
    condition:
      'A web-application authentication rule has no expiry (0), an expiry above 180 days, or remembers fewer than 5 previous passwords.',
    evaluate: (r) =>
      policyCheck(r.policies, 'password', (p) => {
        const days = num(p.MaxDays);
        const history = num(p.PrevCredCount);
        const why = [
          ...(!(days > 0 && days <= 180) ? [`expiry ${p.MaxDays ?? 'unset'} days`] : []),
          ...(!(history >= 5) ? [`previous passwords remembered: ${p.PrevCredCount ?? 'unset'}`] : []),
        ];
        return why.length === 0 ? undefined : why.join(', ');
      }),
    severity: 'low',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      "Set password expiry to 180 days or less and remember at least 5 previous passwords in the web-application authentication rule (or rely on single sign-on with the identity provider's policy).",
  },
  {
    id: 'CUC-API-04',
    topic: 'cupi',
    title: 'Trivial web-application passwords allowed',
    rationale:
      'Without the trivial-password check an administrator may choose a password such as the alias or a run of repeated characters, the first guesses against the administration pages and CUPI.',
    evidence: [E.policies],
    condition: 'A web-application authentication rule does not check for trivial passwords.',
    evaluate: (r) =>
      policyCheck(r.policies, 'password', (p) =>
        p.TrivialCredChecking !== 'true' ? 'trivial password checks are off' : undefined,
      ),
    severity: 'medium',
    references: [R.AUTHENTICATION_RULES_GUIDE, R.CUPI_AUTHENTICATION_RULES],
    remediation:
      'Enable the check for trivial passwords in the web-application authentication rule (the security guide asks for web passwords that are long and non-trivial).',
  },
  {
    id: 'CUC-API-05',
    topic: 'cupi',
    title: 'Secure message recordings can be fetched through CUMI',
    rationale:
      "A secure message is kept on the Connection server so that it cannot be forwarded or saved as a file. Allowing CUMI clients (Web Inbox, Jabber, custom integrations) to fetch the recordings of secure messages lets them leave the server on any device a user's password opens.",
    evidence: [E.cumi],
    condition: 'The configuration value System.API.CumiAccessSecureMessageAttachments (API Settings) is 1.',
    evaluate: (r) => {
      const value = itemsOf(r.cumi).find(
        (c) => c.FullName === 'System.API.CumiAccessSecureMessageAttachments',
      )?.Value;
      if (value === undefined)
        return cannotJudge('System.API.CumiAccessSecureMessageAttachments could not be read');
      return value === '0' ? undefined : `System.API.CumiAccessSecureMessageAttachments is ${value}`;
    },
    severity: 'medium',
    references: [R.CUPI_CONFIGURATION_VALUES, R.CUMI_SECURE_MESSAGES, R.CUPI_END_USER_SYSTEM_CONFIGURATION],
    unverified:
      'The CUPI guide confirms the configuration value System.API.CumiAccessSecureMessageAttachments (writable, values 0/1); the CUMI guide confirms the API Settings box "Allow Access to Secure Message Recordings Through CUMI" and that it is off by default; the end-user CUPI guide says the value is set by an administrator (there with the prefix System.Messaging). No public text puts the value and the box side by side, so that they are one setting is read from the names.',
    remediation:
      'Unless a client that must play secure messages needs it, clear "Allow Access to Secure Message Recordings through CUMI" in System Settings > Advanced > API Settings (CUPI PUT /vmrest/configurationvalues/System.API.CumiAccessSecureMessageAttachments with Value 0).',
  },
  {
    id: 'CUC-API-06',
    topic: 'cupi',
    title: 'Web Inbox granted by a class of service',
    rationale:
      'Cisco\'s advisory cisco-sa-unity-rce-ssrf-hENhuASy puts Unity Connection in scope of CVE-2026-20035, an unauthenticated server-side request forgery in the Web Inbox web UI, whenever a class of service has "Allow Users to Use the Web Inbox and RSS Feeds" checked, which is the default. There is no workaround short of the fixed release (14SU5, 15SU4) or Cisco\'s patch file, and an audit cannot tell from the release string whether the patch file is applied, so a class of service that grants Web Inbox is reported as exposure to confirm, whatever the release.',
    evidence: [E.coses],
    condition:
      'A class of service grants the Web Inbox (CUPI AccessVmi true), as the advisory tests it (Class of Service > Licensed Features > Allow Users to Use the Web Inbox and RSS Feeds); every class counts, since the advisory names the predefined Voice Mail User COS and custom ones alike. A class whose AccessVmi the list does not carry leaves the check not assessed.',
    evaluate: (r) => {
      const coses = itemsOf(r.coses);
      if (coses.length === 0) return cannotJudge('no class of service could be read');
      // The CUPI guide's list example shows only URI, ObjectId and DisplayName: never pass what was not shown.
      const unread = coses.filter((c) => c.AccessVmi !== 'true' && c.AccessVmi !== 'false');
      if (unread.length > 0)
        return cannotJudge(
          `AccessVmi is not in the list for ${listNames(unread.map((c) => c.DisplayName ?? c.ObjectId ?? '?'))}: read each with GET /vmrest/coses/<id>`,
        );
      const granting = coses.filter((c) => c.AccessVmi === 'true').map((c) => c.DisplayName ?? '?');
      return granting.length === 0
        ? undefined
        : `Web Inbox granted by ${granting.length === 1 ? 'class of service' : 'classes of service'} ${listNames(granting)}`;
    },
    severity: 'medium',
    references: [R.ADVISORY_WEB_INBOX_SSRF, R.CUPI_COSES, R.JABBER_VOICEMAIL_COS],
    unverified:
      'That CUPI `AccessVmi` is the box "Allow Users to Use the Web Inbox and RSS Feeds" is read from the texts, not shown side by side: the CUPI guide says AccessVmi decides whether users of the class "can use the Cisco Unity Connection Inbox" (a licensed feature) and that a class of service controls "licensed features such as the Cisco Unity Connection Web Inbox (Connection 8.5 and later)"; the advisory names the box under Licensed Features. The guide\'s list example (GET /vmrest/coses) shows only URI, ObjectId and DisplayName; AccessVmi is shown on GET /vmrest/coses/<id>, so where a node\'s list omits it the check is not assessed, never passed.',
    remediation:
      'Upgrade to a fixed release (14SU5, 15SU4) or apply the patch file the advisory names, then record the finding as accepted. Where users do not need Web Inbox, clear "Allow Users to Use the Web Inbox and RSS Feeds" in their class of service (CUPI PUT /vmrest/coses/<id> with AccessVmi false); Cisco\'s Jabber voicemail set-up checks this box too, so confirm Jabber voicemail is not in use by those users first.',
  },
  {
    id: 'CUC-SVC-01',
    topic: 'services',
    title: 'Platform Administrative Web Service running',
    rationale:
      'The Platform Administrative Web Service lets Prime Collaboration Deployment drive upgrades and changes remotely; when that is not in progress it is needless attack surface.',
    evidence: [E.serviceStatus, E.services],
    condition:
      'Control Center reports Platform Administrative Web Service Started (when Control Center cannot be read: utils service list shows it STARTED).',
    evaluate: (r) => {
      const states = statesOf(r);
      if (states.size === 0) return cannotJudge('the service states could not be read');
      return states.get('Platform Administrative Web Service') === 'STARTED'
        ? 'Platform Administrative Web Service is started'
        : undefined;
    },
    severity: 'medium',
    references: [CONTROL_CENTER_WSDL, R.VOS_SERVICE_LIST, R.NTP_STATUS],
    remediation:
      'Deactivate the Platform Administrative Web Service in Cisco Unified Serviceability (Tools > Service Activation) and activate it only for a Prime Collaboration Deployment task.',
  },
  {
    id: 'CUC-AUD-01',
    topic: 'audit-logging',
    title: 'Audit event service not running',
    rationale:
      'While the Cisco Audit Event Service is down, administrative changes and sign-ins are not audited.',
    evidence: [E.serviceStatus, E.services],
    condition:
      'Control Center does not report Cisco Audit Event Service Started (stopped, not activated or absent; when Control Center cannot be read, utils service list does not show it STARTED).',
    evaluate: (r) => {
      const states = statesOf(r);
      if (states.size === 0) return cannotJudge('the service states could not be read');
      const state = states.get('Cisco Audit Event Service');
      return state === 'STARTED' ? undefined : `Cisco Audit Event Service is ${state ?? 'absent'}`;
    },
    severity: 'medium',
    references: [CONTROL_CENTER_WSDL, R.VOS_SERVICE_LIST],
    remediation:
      'Start the Cisco Audit Event Service in Cisco Unified Serviceability (Control Center - Network Services), enable the application audit log in Audit Log Configuration and forward it to a remote syslog server.',
  },
  {
    id: 'CUC-BKP-01',
    topic: 'backups',
    title: 'No successful backup in the last 8 days',
    rationale: 'Without a recent backup a failure or ransomware loses the mailboxes and the configuration.',
    evidence: [E.drf],
    condition:
      'utils disaster_recovery history backup lists no run with result SUCCESS in the last 8 days (a run that ended in ERROR does not count).',
    evaluate: (r) => judgeDrfStatus(r.drf, 8),
    severity: 'high',
    remediation:
      'Configure a backup device (SFTP) and a daily or at least weekly schedule in Disaster Recovery System, run a backup now and check with `utils disaster_recovery history backup` that it ends in SUCCESS.',
    references: [...DRF_STATUS_REFERENCES],
  },
  {
    id: 'CUC-RST-01',
    topic: 'restriction-tables',
    title: 'Restriction tables allow international numbers',
    rationale:
      'A table that lets Connection dial international numbers turns a compromised mailbox or call handler into a toll-fraud dial-out.',
    evidence: [E.tables, E.patterns],
    condition: `A restriction table (other than the alternate-extension tables) lets the international test number ${PROBES.international} through: its length is within the table's digits and the first dial string that matches it is not blocked. The test numbers assume the access code 9 that the shipped tables use; adapt them to the site's dial plan.`,
    evaluate: (r) => {
      if (dbAnswer(r.patterns, PATTERN_COLUMNS) === undefined) return UNREAD_PATTERNS;
      const open = tablesAllowing(r.tables, r.patterns, PROBES.international);
      return open.length === 0 ? undefined : `international numbers allowed by: ${open.join(', ')}`;
    },
    severity: 'critical',
    references: [
      R.TOLL_FRAUD,
      R.CUPI_RESTRICTION_TABLES,
      R.TECHNOTE_RESTRICTION_TABLES,
      R.CLI_RUN_CUC_DBQUERY,
    ],
    remediation:
      'Block international patterns (for example 9011*) ahead of any allowing dial string, or better, allow only the internal and local patterns the site needs and block `*`.',
  },
  {
    id: 'CUC-RST-02',
    topic: 'restriction-tables',
    title: 'Restriction tables allow long-distance numbers',
    rationale:
      'Long-distance dial-out through transfers, notifications or system transfers is the other common toll-fraud route.',
    evidence: [E.tables, E.patterns],
    condition: `A restriction table (other than the alternate-extension tables) lets the long-distance test number ${PROBES.longDistance} through, judged the same way as CUC-RST-01.`,
    evaluate: (r) => {
      if (dbAnswer(r.patterns, PATTERN_COLUMNS) === undefined) return UNREAD_PATTERNS;
      const open = tablesAllowing(r.tables, r.patterns, PROBES.longDistance);
      return open.length === 0 ? undefined : `long-distance numbers allowed by: ${open.join(', ')}`;
    },
    severity: 'high',
    references: [
      R.TOLL_FRAUD,
      R.CUPI_RESTRICTION_TABLES,
      R.TECHNOTE_RESTRICTION_TABLES,
      R.CLI_RUN_CUC_DBQUERY,
    ],
    remediation:
      'Block long-distance patterns (for example 91??????????) in every dial-out table; the Default System Transfer table, used by callers who have not signed in, should block `*` unless a narrow set of numbers is needed.',
  },
];

export const CUC_CHECKLIST: Checklist = {
  product: 'cuc',
  prompt: 'cuc_security_audit',
  title: 'Unity Connection security audit',
  guide: 'Cisco Unity Connection security guide, release 15',
  topics: TOPICS,
  checks: CHECKS,
};
