import { DEMO_CREDENTIALS, WEAK_APP_USER, type LabCredentials } from '../credentials.ts';
import { setCredential } from '../cucm/db/credentials.ts';
import { defaultCredentialPolicy } from '../cucm/seed.ts';
import { CREDENTIAL_PASSWORD } from '../cucm/db/schema.ts';
import { CUCM_PUBLISHER, IMP_NODE } from '../cucm/topology.ts';
import type { Cell, Row } from '../informix/database.ts';
import { Database } from '../informix/database.ts';
import type { LabProfile } from '../types.ts';
import { IMP_TABLES } from './schema.ts';

export const IMP_SUBSCRIBER = 'imp-sub1';
export const IMP_VERSION = '15.0.1.10000(12)';

/**
 * IM&P security settings as the lab stores them (lab names, in processconfig on the publisher): name,
 * weak value, hardened value. Federation is in use in both profiles; only its protection differs.
 */
const IMP_PARAMETERS: [string, [string, string]][] = [
  // Jabber clients must negotiate TLS before authenticating on the XMPP client port.
  ['XmppTlsRequired', ['F', 'T']],
  ['XmppFederationEnabled', ['T', 'T']],
  // Server-to-server XMPP: without TLS, federated messages and presence cross the internet in clear.
  ['XmppFederationTlsRequired', ['F', 'T']],
  // 'allow': any XMPP domain may federate; 'deny': only the listed partner domains.
  ['XmppFederationPolicy', ['allow', 'deny']],
  ['XmppFederationAllowedDomains', ['', 'partner.example.net']],
  // Application audit log (administrator actions) and its copy to a remote syslog server.
  ['AuditLogEnabled', ['F', 'T']],
  ['AuditLogRemoteSyslogServer', ['', 'syslog.lab.example.com']],
];

/** The IM&P node's database as shipped to the lab; weaknesses only under `profile === 'weak'`. */
export function seedImp(
  profile: LabProfile,
  creds: LabCredentials = DEMO_CREDENTIALS,
  pkids: () => string = Database.newPkid,
): Database {
  const weak = profile === 'weak';
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
    haenabled: weak ? 'f' : 't',
  });

  const policy = ins('credentialpolicy', defaultCredentialPolicy(weak));
  // Application users and roles are synchronised from CUCM; the IM&P copy is what its own admin pages
  // and AXL authorise against, so the audit reads it here.
  const groups = new Map<string, string>();
  for (const name of ['Standard AXL API Access', 'Standard CCM Super Users'])
    groups.set(name, ins('dirgroup', { name }).pkid as string);
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
  appUser(creds.axl.user, 'AXL integration account', creds.axl.password, ['Standard AXL API Access']);
  // A service account that needs AXL only but was given super-user rights: the privileged-account finding.
  if (weak)
    appUser(WEAK_APP_USER.user, 'Legacy integration', WEAK_APP_USER.password, [
      'Standard CCM Super Users',
      'Standard AXL API Access',
    ]);

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
  for (const [name, value] of IMP_PARAMETERS)
    ins('processconfig', {
      fkprocessnode: pub.pkid,
      tkservice: '0',
      paramname: name,
      paramvalue: weak ? value[0] : value[1],
      tkparam: '1',
    });
  return db;
}
