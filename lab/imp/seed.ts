import { DEMO_CREDENTIALS, WEAK_APP_USER, type LabCredentials } from '../credentials.ts';
import { setCredential } from '../cucm/db/credentials.ts';
import { AXL_INTEGRATION_GROUP, STANDARD_GROUP_ROLES, addAccessGroup } from '../cucm/db/roles.ts';
import { defaultCredentialPolicy } from '../cucm/seed.ts';
import { CREDENTIAL_PASSWORD } from '../cucm/db/schema.ts';
import { CUCM_PUBLISHER, IMP_NODE } from '../cucm/topology.ts';
import type { Cell, Row } from '../informix/database.ts';
import { Database } from '../informix/database.ts';
import type { LabSeeding } from '../weaknesses/index.ts';
import { IMP_TABLES } from './schema.ts';

export const IMP_SUBSCRIBER = 'imp-sub1';
export const IMP_VERSION = '15.0.1.10000(12)';

/**
 * IM&P security settings as the lab stores them (processconfig on the publisher): name, weak value,
 * hardened value, and the weakness (lab/weaknesses/imp.ts) that seeds the weak one. The names are the
 * lab's own stand-ins for settings Cisco documents only by their page labels (the IM&P data dictionary
 * is not public); the audit marks the checks that read them unverified. Federation is in use in every
 * case (its connection manager runs, lab/vos/facts.ts); only its protection differs.
 */
const IMP_PARAMETERS: [string, [string, string], string][] = [
  // "Enable XMPP Client To IM/P Service Secure Mode": Jabber clients negotiate TLS before authenticating.
  ['XmppTlsRequired', ['F', 'T'], 'imp-xmpp-client-tls-optional'],
  // "Enable XMPP Router-to-Router Secure Mode": XMPP between IM&P nodes and peer clusters over TLS.
  ['XmppRouterToRouterTlsRequired', ['F', 'T'], 'imp-xmpp-router-tls-off'],
  // Federation Security Mode: without TLS, federated messages and presence cross the internet in clear.
  ['XmppFederationTlsRequired', ['F', 'T'], 'imp-federation-without-tls'],
  // "Require client-side security certificates": the partner's certificate is validated against a root CA.
  ['XmppFederationRequireClientCerts', ['F', 'T'], 'imp-federation-no-cert-validation'],
  // 'allow': any XMPP domain may federate; 'deny': only the listed partner domains.
  ['XmppFederationPolicy', ['allow', 'deny'], 'imp-federation-allow-all'],
  ['XmppFederationAllowedDomains', ['', 'partner.example.net'], 'imp-federation-allow-all'],
  // Application audit log (administrator actions) and its copy to a remote syslog server.
  ['AuditLogEnabled', ['F', 'T'], 'imp-audit-log-off'],
  ['AuditLogRemoteSyslogServer', ['', 'syslog.lab.example.com'], 'imp-audit-log-off'],
];

/** The weakness that makes each credential-policy column weak on IM&P. */
const IMP_POLICY_WEAKNESS: Record<string, string> = {
  failedlogon: 'imp-credpolicy-no-lockout',
  resetfailedlogonminutes: 'imp-credpolicy-no-lockout',
  lockoutduration: 'imp-credpolicy-no-lockout',
  minimumlength: 'imp-credpolicy-weak-passwords',
  trivialcredcheck: 'imp-credpolicy-weak-passwords',
  previouscredstostore: 'imp-credpolicy-weak-passwords',
  mincharstochange: 'imp-credpolicy-weak-passwords',
  credexpiresafterdays: 'imp-credpolicy-no-expiry',
  inactivedaysallowed: 'imp-credpolicy-no-expiry',
  credchangeduration: 'imp-credpolicy-no-expiry',
  expirywarningdays: 'imp-credpolicy-no-expiry',
};

/** The IM&P node's database as shipped to the lab, with the IM&P weaknesses the lab's set names. */
export function seedImp(
  seeding: LabSeeding,
  creds: LabCredentials = DEMO_CREDENTIALS,
  pkids: () => string = Database.newPkid,
): Database {
  const has = (id: string): boolean => seeding.weaknesses.has(id);
  const db = new Database(IMP_TABLES, pkids);
  const ins = (table: string, values: Record<string, Cell | undefined>): Row => db.insert(table, values);
  ins('processnode', {
    name: CUCM_PUBLISHER,
    description: 'CUCM publisher',
    tknodeusage: '0',
    tkprocessnoderole: '1',
  });
  const pub = ins('processnode', {
    name: IMP_NODE,
    description: 'IM and Presence publisher',
    tknodeusage: '0',
    tkprocessnoderole: '2',
  });
  const sub = ins('processnode', {
    name: IMP_SUBSCRIBER,
    description: 'IM and Presence subscriber',
    tknodeusage: '1',
    tkprocessnoderole: '2',
  });
  // High availability off means a node failure logs every user on it out: the audit flags it.
  ins('presenceredundancygroup', {
    name: 'DefaultCUPSubcluster',
    description: 'Default presence redundancy group',
    fkprocessnode_1: pub.pkid,
    fkprocessnode_2: sub.pkid,
    haenabled: has('imp-ha-disabled') ? 'f' : 't',
  });

  const policy = ins(
    'credentialpolicy',
    defaultCredentialPolicy((c) => has(IMP_POLICY_WEAKNESS[c] ?? '')),
  );
  // Application users and roles are synchronised from CUCM; the IM&P copy is what its own admin pages
  // and AXL authorise against, so the audit reads it here.
  const superUsers = 'Standard CCM Super Users';
  const groups = new Map<string, string>([
    [superUsers, addAccessGroup(db, superUsers, STANDARD_GROUP_ROLES[superUsers] ?? [], true)],
    [
      AXL_INTEGRATION_GROUP.name,
      addAccessGroup(db, AXL_INTEGRATION_GROUP.name, AXL_INTEGRATION_GROUP.roles, false),
    ],
  ]);
  const appUser = (
    name: string,
    description: string,
    password: string,
    roles: string[],
    standard = false,
  ): void => {
    const app = ins('applicationuser', { name, description, isstandard: standard ? 't' : 'f' });
    setCredential(db, { fkapplicationuser: app.pkid as string }, CREDENTIAL_PASSWORD, password, {
      fkcredentialpolicy: policy.pkid,
    });
    for (const g of roles)
      ins('applicationuserdirgroupmap', { fkapplicationuser: app.pkid, fkdirgroup: groups.get(g) ?? null });
  };
  appUser(
    creds.ccmAdmin.user,
    'Installation administrator',
    creds.ccmAdmin.password,
    ['Standard CCM Super Users'],
    true,
  );
  appUser(creds.axl.user, 'AXL integration account', creds.axl.password, [AXL_INTEGRATION_GROUP.name]);
  // A service account that needs AXL only but was given super-user rights: the privileged-account finding.
  if (has('imp-privileged-app-user'))
    appUser(WEAK_APP_USER.user, 'Legacy integration', WEAK_APP_USER.password, [superUsers]);

  const users: [string, string, string, string | undefined][] = [
    ['jsmith', 'John', 'Smith', pub.pkid ?? undefined],
    ['mlee', 'Mary', 'Lee', pub.pkid ?? undefined],
    ['rjones', 'Rita', 'Jones', undefined],
  ];
  for (const [userid, firstname, lastname, node] of users) {
    const u = ins('enduser', {
      userid,
      firstname,
      lastname,
      displayname: `${firstname} ${lastname}`,
      mailid: `${userid}@lab.example.com`,
      enablecups: 't',
    });
    if (node) ins('presenceuserassignment', { fkenduser: u.pkid, fkprocessnode: node });
  }
  for (const [name, value, weakness] of IMP_PARAMETERS)
    ins('processconfig', {
      fkprocessnode: pub.pkid,
      tkservice: '0',
      paramname: name,
      paramvalue: has(weakness) ? value[0] : value[1],
      tkparam: '1',
    });
  return db;
}
