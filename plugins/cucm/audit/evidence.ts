// The evidence calls of the CUCM security audit and the helpers that read their results. Each call is
// declared once and shared by every check that needs it (the runner, and an agent following the prompt,
// make an identical call only once), so a whole audit stays far inside the auditor's rate limits.
import { serviceStatusEvidence } from '../../_shared/audit/service-evidence.ts';
import { cannotJudge, type EvidenceCall, type EvidenceResult } from '../../_shared/audit/checklist.ts';

export { excerpt } from '../../_shared/audit/checklist.ts';
import { certListEvidence, drfStatusEvidence } from '../../_shared/audit/cli-tool-evidence.ts';

/** Large enough for a big cluster's user-to-group map in one answer (the tool's ceiling is 4 MiB). */
const LARGE_ANSWER = 4 * 1024 * 1024;

export function sql(id: string, purpose: string, query: string, large = false): EvidenceCall {
  return {
    id,
    tool: 'cucm_axl_call',
    args: {
      host: '{host}',
      operation: 'executeSQLQuery',
      args: { sql: query },
      ...(large ? { max_bytes: LARGE_ANSWER } : {}),
    },
    purpose,
  };
}

export function axl(
  id: string,
  purpose: string,
  operation: string,
  args: Record<string, unknown>,
  large = false,
): EvidenceCall {
  return {
    id,
    tool: 'cucm_axl_call',
    args: { host: '{host}', operation, args, ...(large ? { max_bytes: LARGE_ANSWER } : {}) },
    purpose,
  };
}

export function cli(id: string, purpose: string, command: string): EvidenceCall {
  return { id, tool: 'cucm_os_run_command', args: { host: '{host}', command }, purpose };
}

/**
 * The parameters the audit judges, read in one query (enterprise and CallManager ones). Only
 * paramname and paramvalue are read: the columns Cisco's tokenless-CTL technote queries; a column no
 * public source names would fault the whole query (-217) on a node where it does not exist. The names
 * are the programmatic ids of the parameter pages (Cisco's param-name-mapper sample), case and all:
 * the comparison is exact, so `BlockOffnetToOffnetTransfer` would match no row on a real node.
 */
export const AUDITED_PARAMETERS = [
  'ClusterSecurityMode',
  'TLSCipherPreference',
  'CdrEnabled',
  'BlockOffNetToOffNetTransfer',
] as const;

export const E = {
  parameters: sql(
    'parameters',
    'enterprise and service parameters the audit judges (a per-node service parameter has one row per node)',
    `select paramname, paramvalue from processconfig where paramname in (${AUDITED_PARAMETERS.map((p) => `'${p}'`).join(', ')})`,
  ),
  callManagers: axl(
    'callManagers',
    'every Unified CM (call-processing) node, its server and its auto-registration settings',
    'listCallManager',
    {
      searchCriteria: { name: '%' },
      returnedTags: {
        name: '',
        processNodeName: '',
        autoRegistration: { autoRegistrationEnabled: '', startDn: '', endDn: '' },
      },
    },
  ),
  sipTrunks: axl(
    'sipTrunks',
    'every SIP trunk: security profile, inbound calling search space and SRTP Allowed',
    'listSipTrunk',
    {
      searchCriteria: { name: '%' },
      // The schema's list type (LSipTrunk) has no destinations: those come from sipTrunkDestinations.
      returnedTags: {
        name: '',
        securityProfileName: '',
        callingSearchSpaceName: '',
        srtpAllowed: '',
      },
    },
  ),
  // A destination belongs to the trunk's sipdevice row, which names the trunk's device: the join
  // public scripts run against real clusters (PERCELER's DeviceTools, the CUCM config tracker).
  sipTrunkDestinations: sql(
    'sipTrunkDestinations',
    'every SIP trunk destination: its trunk (device pkid), address and port',
    'select sd.fkdevice as fkdevice, std.address as address, std.port as port from siptrunkdestination std inner join sipdevice sd on std.fksipdevice = sd.pkid',
  ),
  trunkProfiles: axl(
    'trunkProfiles',
    'every SIP trunk security profile: security mode and transports',
    'listSipTrunkSecurityProfile',
    {
      searchCriteria: { name: '%' },
      returnedTags: { name: '', securityMode: '', incomingTransport: '', outgoingTransport: '' },
    },
  ),
  credentialPolicies: axl(
    'credentialPolicies',
    'every credential policy (passwords and PINs): length, lockout, expiry, history, trivial check',
    'listCredentialPolicy',
    {
      searchCriteria: { name: '%' },
      returnedTags: {
        name: '',
        failedLogon: '',
        lockoutDuration: '',
        credExpiresAfter: '',
        minCredLength: '',
        prevCredStoredNum: '',
        trivialCredCheck: '',
      },
    },
  ),
  nonExpiringPins: sql(
    'nonExpiringPins',
    'end-user PINs (credential type 4) flagged "does not expire"',
    "select count(*) from credential where tkcredential = 4 and doesnotexpire = 't'",
  ),
  appUserPasswords: sql(
    'appUserPasswords',
    'application-user passwords (credential type 3) and whether each never expires',
    'select fkapplicationuser, doesnotexpire from credential where tkcredential = 3 and fkapplicationuser is not null',
  ),
  phoneProfiles: axl(
    'phoneProfiles',
    'every phone security profile: protocol, device security mode, digest authentication',
    'listPhoneSecurityProfile',
    {
      searchCriteria: { name: '%' },
      returnedTags: { name: '', protocol: '', deviceSecurityMode: '', enableDigestAuthentication: '' },
    },
  ),
  phoneSettings: sql(
    'phoneSettings',
    'the distinct security profile and calling search space pairs phones use',
    'select distinct fksecurityprofile, fkcallingsearchspace from device where tkclass = 1',
    true,
  ),
  // A CSS's partitions, in order, are its clause (names joined by ':'): read from AXL in one call, with
  // the uuid phones reference, instead of joining callingsearchspacemember by SQL.
  css: axl(
    'css',
    'every calling search space and its ordered partitions (clause: partition names joined by ":")',
    'listCss',
    { searchCriteria: { name: '%' }, returnedTags: { name: '', clause: '' } },
    true,
  ),
  routePatterns: axl(
    'routePatterns',
    'route patterns: the pattern, its partition and whether a forced authorization code is required',
    'listRoutePattern',
    {
      searchCriteria: { pattern: '%' },
      returnedTags: { pattern: '', routePartitionName: '', authorizationCodeRequired: '' },
    },
    true,
  ),
  appUsers: sql(
    'appUsers',
    'application users and whether each is a built-in (standard) account',
    'select pkid, name, isstandard from applicationuser',
  ),
  groups: sql('groups', 'access control groups', 'select pkid, name from dirgroup'),
  appUserGroups: sql(
    'appUserGroups',
    'application-user membership of access control groups',
    'select fkapplicationuser, fkdirgroup from applicationuserdirgroupmap',
    true,
  ),
  autoRegisteredPhones: {
    id: 'autoRegisteredPhones',
    tool: 'cucm_risport_query',
    args: {
      host: '{host}',
      device_class: 'Phone',
      status: 'Any',
      select_by: 'Description',
      select_items: ['Auto *'],
      max_requests: 2,
    },
    purpose: 'phones RIS knows whose description is the "Auto <DN>" an auto-registered phone gets',
  } satisfies EvidenceCall,
  osPasswordMaxAge: cli(
    'osPasswordMaxAge',
    'maximum age of OS (CLI) administrator passwords',
    'show password expiry maximum-age',
  ),
  ntp: cli('ntp', 'NTP synchronisation', 'utils ntp status'),
  version: cli('version', 'the active software release', 'show version active'),
  tlsMin: cli('tlsMin', 'the lowest TLS version the node accepts', 'show tls min-version'),
  fips: cli('fips', 'whether the node runs in FIPS mode', 'utils fips status'),
  // Parsed by cucm_cert_list: the list (who signed each) and each certificate's validity, one call.
  certList: certListEvidence('cucm', 'certList'),
  serviceStatus: serviceStatusEvidence('cucm', 'serviceStatus'),
  // The fallback of the service checks when Control Center cannot be read.
  services: cli('services', 'activated and running services', 'utils service list'),
  backups: drfStatusEvidence('cucm', 'backups'),
};

/** The node's own certificates the expiry check reads one by one (`show cert own <name>`). */
export const OWN_CERTIFICATES = [
  'tomcat/tomcat.pem',
  'tomcat-ECDSA/tomcat-ECDSA.pem',
  'CallManager/CallManager.pem',
  'CAPF/CAPF.pem',
  'TVS/TVS.pem',
  'ipsec/ipsec.pem',
  'ITLRecovery/ITLRecovery.pem',
] as const;

export const certCalls: EvidenceCall[] = [E.certList];

// ---- reading results -------------------------------------------------------------------------------

/** An AXL value as text: plain strings, and foreign keys (`{ $value: name }`) by their name. */
export function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v && typeof v === 'object' && '$value' in v) return text((v as { $value: unknown }).$value);
  return '';
}

/** A uuid as SQL shows pkids: lower case, no braces (AXL shows `{ABC-...}`). */
export function pkidOf(v: unknown): string {
  const attrs =
    v && typeof v === 'object' ? (v as { $attributes?: { uuid?: unknown } }).$attributes : undefined;
  return text(attrs?.uuid).replace(/[{}]/g, '').toLowerCase();
}

/**
 * Why an answer cannot be judged whole, or undefined when it can: a cut answer (it carries a cursor)
 * must never pass a check silently, so the checks report it as the observation instead.
 */
export function incomplete(...results: (EvidenceResult | undefined)[]): string | undefined {
  const cut = results.find((r) => r?.ok && r.data.complete === false);
  return cut?.ok
    ? cannotJudge(
        `the ${String(cut.data.operation ?? 'tool')} answer is incomplete (cut with a cursor or state_info); continue it and judge again`,
      )
    : undefined;
}

export function isTrue(v: unknown): boolean {
  return /^(t|true|1)$/i.test(text(v).trim());
}
