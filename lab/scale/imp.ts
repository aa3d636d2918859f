// IM&P at scale: the presence users (synchronised from CUCM) assigned to each IM&P node of the
// presence redundancy group until every node holds the spec's count.
import type { Database } from '../informix/database.ts';
import type { ScalePlan } from './plan.ts';

/** The IM&P nodes (processnode role 2 in the IM&P database), in database order. */
function impNodes(db: Database): { pkid: string }[] {
  return db
    .table('processnode')
    .rows.filter((r) => r.tkprocessnoderole === '2')
    .map((r) => ({ pkid: r.pkid as string }));
}

export function applyImpScale(db: Database, plan: ScalePlan): void {
  const users = db.table('enduser');
  const assignments = db.table('presenceuserassignment');
  let next = 0;
  for (const node of impNodes(db)) {
    const held = assignments.lookup('fkprocessnode', node.pkid).length;
    for (let n = held; n < plan.spec.impUsersPerNode; n++) {
      let p = plan.people[next++];
      while (p && users.findBy('userid', p.userid)) p = plan.people[next++];
      if (!p) throw new Error('lab scale: the plan has too few people for the IM&P nodes');
      const user = db.insert('enduser', {
        userid: p.userid,
        firstname: p.first,
        lastname: p.last,
        displayname: `${p.first} ${p.last}`,
        mailid: `${p.userid}@lab.example.com`,
        enablecups: 't',
      });
      db.insert('presenceuserassignment', { fkenduser: user.pkid, fkprocessnode: node.pkid });
    }
  }
}
