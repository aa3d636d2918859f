import { DEMO_CREDENTIALS, WEAK_APP_USER, type LabCredentials } from '../credentials.ts';
import type { Cell, Row } from '../informix/database.ts';
import { Database } from '../informix/database.ts';
import type { LabSeeding } from '../weaknesses/index.ts';
import { setCredential } from './db/credentials.ts';
import { AXL_INTEGRATION_GROUP, seedAccessGroups } from './db/roles.ts';
import {
  CREDENTIAL_PASSWORD,
  CREDENTIAL_PIN,
  CUCM_TABLES,
  ENTERPRISE_NODE,
  PATTERN_ROUTE,
  SERVICE_CALLMANAGER,
  SERVICE_ENTERPRISE_WIDE,
} from './db/schema.ts';
import * as T from './db/types.ts';
import { seedDialPlan } from './seed-dialplan.ts';
import { seedHardening } from './seed-hardening.ts';
import { bulkPhones, seedPhones } from './seed-phones.ts';
import { CUCM_PUBLISHER, CUCM_SUBSCRIBER, DEMO_PHONES, IMP_NODE, RIS_RATE_PARAMETER } from './topology.ts';

/**
 * Column, weak value, hardened value. Weak: no lockout, no expiry, one-character passwords, trivial ones
 * accepted. Which weakness makes each column weak is the caller's choice (CUCM and IM&P group them apart).
 */
export const CREDENTIAL_POLICY: [string, string, string][] = [
  ['failedlogon', '0', '3'],
  ['resetfailedlogonminutes', '0', '30'],
  ['lockoutduration', '0', '30'],
  ['credchangeduration', '0', '1440'],
  ['credexpiresafterdays', '0', '90'],
  ['minimumlength', '1', '12'],
  ['previouscredstostore', '0', '12'],
  ['inactivedaysallowed', '0', '90'],
  ['expirywarningdays', '0', '14'],
  ['trivialcredcheck', 'f', 't'],
  ['mincharstochange', '0', '4'],
];

/** The Default Credential Policy row (CUCM and IM&P ship the same), weak in the columns `weak` names. */
export function defaultCredentialPolicy(weak: (column: string) => boolean): Record<string, string> {
  return {
    displayname: 'Default Credential Policy',
    ...Object.fromEntries(CREDENTIAL_POLICY.map(([c, w, h]) => [c, weak(c) ? w : h])),
  };
}

/** The weakness (lab/weaknesses/cucm.ts) that makes each credential-policy column weak on CUCM. */
const CUCM_POLICY_WEAKNESS: Record<string, string> = {
  minimumlength: 'cucm-credpolicy-length',
  trivialcredcheck: 'cucm-credpolicy-length',
  mincharstochange: 'cucm-credpolicy-length',
  failedlogon: 'cucm-credpolicy-lockout',
  resetfailedlogonminutes: 'cucm-credpolicy-lockout',
  lockoutduration: 'cucm-credpolicy-lockout',
  credexpiresafterdays: 'cucm-credpolicy-expiry',
  previouscredstostore: 'cucm-credpolicy-expiry',
  credchangeduration: 'cucm-credpolicy-expiry',
  inactivedaysallowed: 'cucm-credpolicy-expiry',
  expirywarningdays: 'cucm-credpolicy-expiry',
};

/** The CallManager nodes of a cluster: the main one, or the 14.0 cluster's. */
export interface ClusterNames {
  publisher: string;
  subscriber: string;
}

export const MAIN_CLUSTER: ClusterNames = { publisher: CUCM_PUBLISHER, subscriber: CUCM_SUBSCRIBER };

/**
 * The CUCM publisher's database as shipped to the lab. Every database weakness the security audits look
 * for is seeded here, each only when its id (lab/weaknesses/cucm.ts) is in the lab's set.
 */
export function seedCucm(
  seeding: LabSeeding,
  extraPhones: number,
  risRateLimitPerMinute: number,
  creds: LabCredentials = DEMO_CREDENTIALS,
  pkids: () => string = Database.newPkid,
  nodes: ClusterNames = MAIN_CLUSTER,
): Database {
  const has = (id: string): boolean => seeding.weaknesses.has(id);
  const db = new Database(CUCM_TABLES, pkids);
  const { publisher, subscriber } = nodes;
  const ins = (table: string, values: Record<string, Cell | undefined>): Row => db.insert(table, values);
  for (const [table, values] of [
    ['typemodel', T.MODELS],
    ['typeclass', T.CLASSES],
    ['typedeviceprotocol', T.PROTOCOLS],
    ['typeservice', T.SERVICES],
  ] as const) {
    for (const row of T.typeRows(values)) ins(table, row);
  }

  const enterprise = ins('processnode', {
    name: ENTERPRISE_NODE,
    systemnode: 't',
    tknodeusage: '0',
    description: 'Enterprise-wide parameters',
  });
  const pub = ins('processnode', {
    name: publisher,
    description: 'CUCM publisher',
    tknodeusage: '0',
    nodeid: '2',
    mac: '',
  });
  const sub = ins('processnode', {
    name: subscriber,
    description: 'CUCM subscriber',
    tknodeusage: '1',
    nodeid: '3',
  });
  ins('processnode', {
    name: IMP_NODE,
    description: 'IM and Presence publisher',
    tknodeusage: '0',
    tkprocessnoderole: '2',
    nodeid: '4',
  });

  // Auto-registration lets any phone plugged in register: the security guide wants it off.
  const autoreg = has('cucm-auto-registration-on') ? 't' : 'f';
  const cmPub = ins('callmanager', {
    name: `CM_${publisher}`,
    fkprocessnode: pub.pkid,
    ctiid: '1',
    autoregistrationenabled: autoreg,
    autoregistrationstartdn: '9000',
    autoregistrationenddn: '9099',
  });
  const cmSub = ins('callmanager', {
    name: `CM_${subscriber}`,
    fkprocessnode: sub.pkid,
    ctiid: '2',
    autoregistrationenabled: 'f',
    autoregistrationstartdn: '',
    autoregistrationenddn: '',
  });
  const group = ins('callmanagergroup', { name: 'Default', tftpdefault: 't' });
  ins('callmanagergroupmember', { fkcallmanagergroup: group.pkid, fkcallmanager: cmSub.pkid, priority: '0' });
  ins('callmanagergroupmember', { fkcallmanagergroup: group.pkid, fkcallmanager: cmPub.pkid, priority: '1' });
  const dpDefault = ins('devicepool', { name: 'Default', fkcallmanagergroup: group.pkid });
  const dpHq = ins('devicepool', { name: 'DP_HQ', fkcallmanagergroup: group.pkid });

  const ptInternal = ins('routepartition', { name: 'PT_Internal', description: 'Internal extensions' });
  const ptPstn = ins('routepartition', { name: 'PT_PSTN', description: 'PSTN route patterns' });
  const ptIntl = ins('routepartition', { name: 'PT_International', description: 'International PSTN' });
  const css = (name: string, description: string, partitions: Row[]): Row => {
    const row = ins('callingsearchspace', {
      name,
      description,
      clause: partitions.map((p) => p.name).join(':'),
    });
    partitions.forEach((p, i) =>
      ins('callingsearchspacemember', {
        fkcallingsearchspace: row.pkid,
        fkroutepartition: p.pkid,
        sortorder: String(i + 1),
      }),
    );
    return row;
  };
  const cssInternal = css('CSS_Internal', 'Internal only', [ptInternal]);
  // The phones' CSS reaches international numbers in both profiles; hardened, only with a forced
  // authorization code (FAC) on the international pattern, which is how toll fraud is kept in check.
  const cssNational = css('CSS_National', 'Internal, national and international', [
    ptInternal,
    ptPstn,
    ptIntl,
  ]);
  const routePattern = (pattern: string, partition: Row, description: string, fac: boolean): void => {
    ins('numplan', {
      dnorpattern: pattern,
      fkroutepartition: partition.pkid,
      description,
      tkpatternusage: PATTERN_ROUTE,
      authorizationrequired: fac ? 't' : 'f',
      authorizationlevelrequired: fac ? '10' : '0',
    });
  };
  routePattern('9.[2-9]XXXXXXXXX', ptPstn, 'National PSTN', false);
  const intlFac = !has('cucm-intl-without-fac');
  routePattern('9.011!', ptIntl, 'International PSTN', intlFac);
  routePattern('9.011!#', ptIntl, 'International PSTN, end of dialling', intlFac);

  const phoneProfile = ins('securityprofile', {
    name: 'Universal Device Template - Model-independent Security Profile',
    tkmodel: '0',
    tkdeviceprotocol: '11',
    tksecuritymode: has('cucm-phone-profile-non-secure') ? '1' : '3',
    enabledigestauthentication: has('cucm-phone-no-digest') ? 'f' : 't',
  });
  const nonSecure = ins('securityprofile', {
    name: 'Non Secure SIP Trunk Profile',
    description: 'Non Secure SIP Trunk Profile authenticated by null String',
    tkmodel: T.SIP_TRUNK_MODEL,
    tkdeviceprotocol: T.PROTOCOL_SIP,
    tksecuritymode: '1',
    tktransport: '4',
    tkoutgoingtransport: '1',
    incomingport: '5060',
  });
  const encrypted = ins('securityprofile', {
    name: 'Encrypted SIP Trunk Profile',
    description: 'TLS with SRTP',
    tkmodel: T.SIP_TRUNK_MODEL,
    tkdeviceprotocol: T.PROTOCOL_SIP,
    tksecuritymode: '3',
    tktransport: '3',
    tkoutgoingtransport: '3',
    incomingport: '5061',
    x509subjectname: 'sbc.lab.example.com',
  });

  const policy = ins(
    'credentialpolicy',
    defaultCredentialPolicy((c) => has(CUCM_POLICY_WEAKNESS[c] ?? '')),
  );

  // Standard groups with the roles they carry, and the custom group the AXL integration account uses.
  const groups = seedAccessGroups(db);
  const appUser = (
    name: string,
    description: string,
    password: string,
    groupNames: string[],
    standard = false,
  ): void => {
    const user = ins('applicationuser', { name, description, isstandard: standard ? 't' : 'f' });
    setCredential(db, { fkapplicationuser: user.pkid as string }, CREDENTIAL_PASSWORD, password, {
      fkcredentialpolicy: policy.pkid,
      doesnotexpire: has('cucm-privileged-passwords-no-expiry') ? 't' : 'f',
    });
    for (const g of groupNames)
      ins('applicationuserdirgroupmap', { fkapplicationuser: user.pkid, fkdirgroup: groups.get(g) ?? null });
  };
  appUser(
    creds.ccmAdmin.user,
    'Installation administrator',
    creds.ccmAdmin.password,
    ['Standard CCM Super Users'],
    true,
  );
  appUser(creds.axl.user, 'AXL integration account', creds.axl.password, [
    AXL_INTEGRATION_GROUP.name,
    'Standard RealtimeAndTraceCollection',
  ]);
  if (has('cucm-privileged-app-user')) {
    // A service account with super-user rights (AXL included: the group carries that role) and a
    // guessable password: the privileged-app-user finding.
    appUser(WEAK_APP_USER.user, 'Legacy integration', WEAK_APP_USER.password, ['Standard CCM Super Users']);
  }

  const users = new Map<string, Row>();
  const endUser = (
    userid: string,
    firstname: string,
    lastname: string,
    password: string,
    pin: string,
  ): void => {
    const user = ins('enduser', {
      userid,
      firstname,
      lastname,
      displayname: `${firstname} ${lastname}`,
      mailid: `${userid}@lab.example.com`,
      department: 'Sales',
      enablecups: 't',
    });
    setCredential(db, { fkenduser: user.pkid as string }, CREDENTIAL_PASSWORD, password, {
      fkcredentialpolicy: policy.pkid,
    });
    setCredential(db, { fkenduser: user.pkid as string }, CREDENTIAL_PIN, pin, {
      fkcredentialpolicy: policy.pkid,
      doesnotexpire: has('cucm-pins-never-expire') ? 't' : 'f',
    });
    ins('enduserdirgroupmap', {
      fkenduser: user.pkid,
      fkdirgroup: groups.get('Standard CCM End Users') ?? null,
    });
    users.set(userid, user);
  };
  // Guessable PINs follow the profile: no audit check reads PIN values (they are hashed on a real node).
  const weakPins = seeding.profile === 'weak';
  endUser('jsmith', 'John', 'Smith', creds.phone.password, weakPins ? '12345' : '739154');
  endUser('mlee', 'Mary', 'Lee', creds.phoneOther.password, weakPins ? '12345' : '604817');
  endUser('rjones', 'Rita', 'Jones', 'Lab-User-Pass3!', weakPins ? '11111' : '582036');

  const phones = { partition: ptInternal, securityProfile: phoneProfile, users };
  // Weak: the lobby phone (the one without an owner) registered itself while auto-registration was on
  // and was never configured: it keeps the DN from the auto-registration range and the "Auto <dn>"
  // description CUCM gives such phones, and a CSS that reaches the PSTN.
  const demoPhones = has('cucm-auto-registered-phone')
    ? DEMO_PHONES.map((p) => (p.owner ? p : { ...p, dn: '9000', description: 'Auto 9000' }))
    : DEMO_PHONES;
  seedPhones(db, demoPhones, { ...phones, pool: dpHq, css: cssNational });
  seedPhones(db, bulkPhones(extraPhones), { ...phones, pool: dpDefault, css: cssInternal });

  const trunk = ins('device', {
    name: 'SIP_TO_SBC',
    description: 'Trunk to the session border controller',
    tkclass: T.CLASS_TRUNK,
    tkmodel: T.SIP_TRUNK_MODEL,
    tkproduct: T.SIP_TRUNK_MODEL,
    tkdeviceprotocol: T.PROTOCOL_SIP,
    fkdevicepool: dpHq.pkid,
    // Inbound calls from the SBC with a CSS reaching the PSTN can be sent straight back out (toll fraud).
    fkcallingsearchspace: has('cucm-trunk-css-pstn') ? cssNational.pkid : cssInternal.pkid,
    fksecurityprofile: has('cucm-trunk-no-tls') ? nonSecure.pkid : encrypted.pkid,
    srtpallowed: has('cucm-trunk-no-srtp') ? 'f' : 't',
  });
  const sipTrunk = ins('sipdevice', { fkdevice: trunk.pkid });
  ins('siptrunkdestination', {
    fksipdevice: sipTrunk.pkid,
    address: '192.0.2.10',
    port: has('cucm-trunk-port-5060') ? '5060' : '5061',
    sortorder: '1',
  });

  const param = (node: Row, service: string, name: string, value: string, type = '3'): void => {
    ins('processconfig', {
      fkprocessnode: node.pkid,
      tkservice: service,
      paramname: name,
      paramvalue: value,
      tkparam: type,
    });
  };
  // Cluster security mode 0 is non-secure: no CTL, no encrypted signalling anywhere.
  param(
    enterprise,
    SERVICE_ENTERPRISE_WIDE,
    'ClusterSecurityMode',
    has('cucm-cluster-non-secure') ? '0' : '1',
    '2',
  );
  param(enterprise, SERVICE_ENTERPRISE_WIDE, RIS_RATE_PARAMETER, String(risRateLimitPerMinute), '2');
  param(
    enterprise,
    SERVICE_ENTERPRISE_WIDE,
    'URLAuthentication',
    `https://${publisher}:8443/ccmcip/authenticate.jsp`,
  );
  // TLS cipher suites of the node's TLS interfaces (the "TLS Ciphers" enterprise parameter, whose
  // programmatic id is TLSCipherPreference; the option text as value).
  param(
    enterprise,
    SERVICE_ENTERPRISE_WIDE,
    'TLSCipherPreference',
    has('cucm-tls-all-ciphers')
      ? 'ALL_CIPHERS RSA Preferred'
      : 'Strongest - AES-256 SHA-384 Only: RSA Preferred',
  );
  // OAuth refresh logins for Jabber (System > Enterprise Parameters > SSO Configuration); Boolean.
  param(
    enterprise,
    SERVICE_ENTERPRISE_WIDE,
    'oAuthWithRefreshLoginFlow',
    has('cucm-oauth-refresh-off') ? 'F' : 'T',
    '1',
  );
  for (const node of [pub, sub]) {
    param(node, SERVICE_CALLMANAGER, 'CdrEnabled', has('cucm-cdr-off') ? 'F' : 'T', '1');
    // A call from the PSTN transferred back to the PSTN is the classic toll-fraud path.
    param(
      node,
      SERVICE_CALLMANAGER,
      'BlockOffNetToOffNetTransfer',
      has('cucm-offnet-transfer') ? 'F' : 'T',
      '1',
    );
  }
  param(pub, SERVICE_CALLMANAGER, 'T302Timer', '15000', '2');
  seedDialPlan(db);
  seedHardening(db, seeding);
  return db;
}
