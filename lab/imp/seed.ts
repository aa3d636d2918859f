import { DEMO_CREDENTIALS } from '../credentials.ts';
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

/** The IM&P node's database as shipped to the lab; weaknesses only under `profile === 'weak'`. */
export function seedImp(profile: LabProfile): Database {
  const weak = profile === 'weak';
  const db = new Database(IMP_TABLES);
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
  const axlGroup = ins('dirgroup', { name: 'Standard AXL API Access' });
  const app = ins('applicationuser', {
    name: DEMO_CREDENTIALS.axl.user,
    description: 'AXL integration account',
  });
  setCredential(
    db,
    { fkapplicationuser: app.pkid as string },
    CREDENTIAL_PASSWORD,
    DEMO_CREDENTIALS.axl.password,
    { fkcredentialpolicy: policy.pkid },
  );
  ins('applicationuserdirgroupmap', { fkapplicationuser: app.pkid, fkdirgroup: axlGroup.pkid });

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
  ins('processconfig', {
    fkprocessnode: pub.pkid,
    tkservice: '0',
    paramname: 'XmppTlsRequired',
    paramvalue: weak ? 'F' : 'T',
    tkparam: '1',
  });
  return db;
}
