// The CUCM publisher's database at scale: subscribers and their CallManager groups, per-site device
// pools, partitions and calling search spaces, directory numbers in site ranges, end users, phones with
// mixed models (some sharing a line, some with a second one, common-area phones without an owner) and
// route and translation patterns. Added on top of the demo seed until each total of the spec is reached.
import type { Cell, Database, Row } from '../informix/database.ts';
import { PATTERN_DEVICE, PATTERN_ROUTE, USER_CONTROLS_DEVICE } from '../cucm/db/schema.ts';
import { CLASS_PHONE, PHONE_MODELS } from '../cucm/db/types.ts';
import { CUCM_PUBLISHER, CUCM_SUBSCRIBER } from '../cucm/topology.ts';
import type { ScalePlan, Site } from './plan.ts';
import { dnOf, siteOf } from './plan.ts';
import { Rng } from './random.ts';

/**
 * typepatternusage 3, Translation (Cisco data dictionary, typepatternusage); 5 is Route, 2 Device.
 * The lab's schema names only Device and Route; this value follows the data dictionary.
 */
export const PATTERN_TRANSLATION = '3';

/** A generated phone, for RisPort: where it registers and with what. */
export interface ScalePhone {
  name: string;
  model: string;
  /** Primary and secondary CallManager of its device pool's group. */
  home: string;
  backup: string;
  site: number;
}

export interface CucmScaleResult {
  /** Every CallManager node, publisher first: RisPort lists them in this order. */
  nodes: string[];
  phones: ScalePhone[];
}

/** Model mix of a typical estate: mostly 78xx/88xx SIP, a tail of SCCP 79xx still in service. */
const MODEL_MIX: [string, number][] = [
  ['Cisco 8865', 25],
  ['Cisco 8845', 25],
  ['Cisco 7841', 30],
  ['Cisco 8851', 10],
  ['Cisco 7965', 5],
  ['Cisco 7945', 5],
];
const MODEL_TOTAL = MODEL_MIX.reduce((s, [, w]) => s + w, 0);

function pickModel(rng: Rng): string {
  let n = rng.int(MODEL_TOTAL);
  for (const [model, weight] of MODEL_MIX) {
    if (n < weight) return model;
    n -= weight;
  }
  return 'Cisco 8865';
}

const modelEnum = new Map(PHONE_MODELS.map((m) => [m.name, m.enum]));

export function subscriberNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i === 0 ? CUCM_SUBSCRIBER : `cucm-sub${i + 1}`));
}

function count(db: Database, table: string, column: string, values: readonly string[]): number {
  return db.table(table).rows.filter((r) => values.includes(r[column] ?? '')).length;
}

/** Adds the scale's objects to a seeded CUCM database. */
export function applyCucmScale(db: Database, plan: ScalePlan): CucmScaleResult {
  const { spec } = plan;
  const rng = new Rng(plan.seed, 'cucm');
  const ins = (table: string, values: Record<string, Cell | undefined>): Row => db.insert(table, values);
  const byName = (table: string, name: string): Row => {
    const row = db.table(table).findBy('name', name);
    if (!row) throw new Error(`lab scale: the base seed has no ${table} ${name}`);
    return row;
  };

  // Subscribers: the demo has one; every CallManager gets its callmanager row.
  const subs = subscriberNames(spec.subscribers);
  const nodeIds = db.table('processnode').rows.map((r) => Number(r.nodeid ?? 0));
  let nextNodeId = Math.max(0, ...nodeIds) + 1;
  let nextCti = Math.max(0, ...db.table('callmanager').rows.map((r) => Number(r.ctiid ?? 0))) + 1;
  for (const name of subs) {
    if (db.table('processnode').findBy('name', name)) continue;
    const node = ins('processnode', {
      name,
      description: 'CUCM subscriber',
      tknodeusage: '1',
      nodeid: String(nextNodeId++),
    });
    ins('callmanager', {
      name: `CM_${name}`,
      fkprocessnode: node.pkid,
      ctiid: String(nextCti++),
      autoregistrationenabled: 'f',
      autoregistrationstartdn: '',
      autoregistrationenddn: '',
    });
  }
  // CallManager groups pair the subscribers round robin; the publisher takes no phones, as recommended.
  const groups = subs.map((primary, i) => {
    const backup = subs[(i + 1) % subs.length] as string;
    const group = ins('callmanagergroup', { name: `CMG_${String.fromCharCode(65 + i)}`, tftpdefault: 'f' });
    const members = backup === primary ? [primary] : [primary, backup];
    members.forEach((n, priority) =>
      ins('callmanagergroupmember', {
        fkcallmanagergroup: group.pkid,
        fkcallmanager: byName('callmanager', `CM_${n}`).pkid,
        priority: String(priority),
      }),
    );
    return { group, primary, backup };
  });

  const internal = byName('routepartition', 'PT_Internal');
  const phoneProfile = byName(
    'securityprofile',
    'Universal Device Template - Model-independent Security Profile',
  );
  interface SiteRows {
    pool: Row;
    dn: Row;
    pstn: Row;
    xlate: Row;
    css: Row;
    home: string;
    backup: string;
  }
  const siteRows: SiteRows[] = plan.sites.map((site: Site, i) => {
    const g = groups[i % groups.length] as (typeof groups)[number];
    const pool = ins('devicepool', { name: `DP_${site.code}`, fkcallmanagergroup: g.group.pkid });
    const dn = ins('routepartition', { name: `PT_${site.code}_DN`, description: `${site.city} extensions` });
    const pstn = ins('routepartition', { name: `PT_${site.code}_PSTN`, description: `${site.city} PSTN` });
    const xlate = ins('routepartition', {
      name: `PT_${site.code}_XLATE`,
      description: `${site.city} translations`,
    });
    const members = [dn, xlate, internal, pstn];
    const css = ins('callingsearchspace', {
      name: `CSS_${site.code}_Device`,
      description: `${site.city} phones`,
      clause: members.map((p) => p.name).join(':'),
    });
    members.forEach((p, order) =>
      ins('callingsearchspacemember', {
        fkcallingsearchspace: css.pkid,
        fkroutepartition: p.pkid,
        sortorder: String(order + 1),
      }),
    );
    return { pool, dn, pstn, xlate, css, home: g.primary, backup: g.backup };
  });

  // End users: the plan's people, as many as the total lacks.
  const users: Row[] = [];
  const userNeed = Math.max(0, spec.endUsers - db.table('enduser').size);
  for (const p of plan.people.slice(0, userNeed)) {
    users.push(
      ins('enduser', {
        userid: p.userid,
        firstname: p.first,
        lastname: p.last,
        displayname: `${p.first} ${p.last}`,
        mailid: `${p.userid}@lab.example.com`,
        department: p.department,
        title: p.title,
        status: '1',
        enablecups: 't',
        islocaluser: 'f',
      }),
    );
  }

  const phoneNeed = Math.max(0, spec.phones - count(db, 'device', 'tkclass', [CLASS_PHONE]));
  const dnNeed = Math.max(0, spec.lines - count(db, 'numplan', 'tkpatternusage', [PATTERN_DEVICE]));
  const perSite = new Array<number>(plan.sites.length).fill(0);
  const addDn = (site: Site, within: number, description: string): Row => {
    perSite[site.index] = Math.max(perSite[site.index] ?? 0, within + 1);
    const rows = siteRows[site.index] as SiteRows;
    return ins('numplan', {
      dnorpattern: `8${String(site.index).padStart(2, '0')}${String(within).padStart(4, '0')}`,
      fkroutepartition: rows.dn.pkid,
      description,
      alertingname: description,
      tkpatternusage: PATTERN_DEVICE,
    });
  };
  const devices = db.table('device');
  const phones: ScalePhone[] = [];
  const generated: Row[] = [];
  const primaries: Row[] = [];
  const lineCount: number[] = [];
  let dnsMade = 0;
  for (let i = 0; i < phoneNeed; i++) {
    const site = siteOf(plan, i);
    const rows = siteRows[site.index] as SiteRows;
    const owner = users[i];
    const model = pickModel(rng);
    let name = `SEP${rng.hex(12).toUpperCase()}`;
    while (devices.findBy('name', name)) name = `SEP${rng.hex(12).toUpperCase()}`;
    const short = model.replace('Cisco ', '');
    const description = owner
      ? `${owner.firstname ?? ''} ${owner.lastname ?? ''} - ${short}`
      : `${site.city} common area ${i} - ${short}`;
    const device = ins('device', {
      name,
      description,
      tkclass: CLASS_PHONE,
      tkmodel: modelEnum.get(model) ?? '36670',
      tkproduct: modelEnum.get(model) ?? '36670',
      tkdeviceprotocol: model.startsWith('Cisco 79') ? '0' : '11',
      fkdevicepool: rows.pool.pkid,
      fkcallingsearchspace: rows.css.pkid,
      fksecurityprofile: phoneProfile.pkid,
      fkenduser: owner?.pkid ?? null,
    });
    phones.push({ name, model, home: rows.home, backup: rows.backup, site: site.index });
    generated.push(device);
    if (owner)
      ins('enduserdevicemap', {
        fkenduser: owner.pkid,
        fkdevice: device.pkid,
        tkuserassociation: USER_CONTROLS_DEVICE,
      });
    if (dnsMade < dnNeed) {
      const number = dnOf(plan, i);
      const dn = addDn(site, Math.floor(i / plan.sites.length), description);
      dnsMade++;
      if (owner) db.update('enduser', owner, { telephonenumber: number });
      ins('devicenumplanmap', {
        fkdevice: device.pkid,
        fknumplan: dn.pkid,
        numplanindex: '1',
        display: owner ? `${owner.firstname ?? ''} ${owner.lastname ?? ''}` : description,
        label: number,
      });
      primaries.push(dn);
      lineCount.push(1);
    }
  }
  // Shared lines: one phone in twenty also rings its neighbour's extension (an assistant and a manager).
  for (let i = 19; i < primaries.length; i += 20) {
    const device = generated[i] as Row;
    const shared = primaries[i - 1] as Row;
    lineCount[i] = (lineCount[i] ?? 1) + 1;
    ins('devicenumplanmap', {
      fkdevice: device.pkid,
      fknumplan: shared.pkid,
      numplanindex: String(lineCount[i]),
      display: shared.alertingname ?? '',
      label: shared.dnorpattern ?? '',
    });
  }
  // The remaining numbers: second lines spread evenly over the phones, then unassigned numbers.
  const extra = dnNeed - dnsMade;
  for (let j = 0; j < extra; j++) {
    const p = primaries.length > 0 && j < primaries.length ? Math.floor((j * primaries.length) / extra) : -1;
    const site = p >= 0 ? (plan.sites[(phones[p] as ScalePhone).site] as Site) : siteOf(plan, j);
    const dn = addDn(site, perSite[site.index] ?? 0, p >= 0 ? 'Second line' : 'Unassigned');
    if (p < 0) continue;
    lineCount[p] = (lineCount[p] ?? 1) + 1;
    ins('devicenumplanmap', {
      fkdevice: (generated[p] as Row).pkid,
      fknumplan: dn.pkid,
      numplanindex: String(lineCount[p]),
      display: 'Second line',
      label: dn.dnorpattern ?? '',
    });
  }

  // Route patterns to each site's PSTN gateway and translation patterns for its DID range.
  const patternNeed = Math.max(
    0,
    spec.patterns - count(db, 'numplan', 'tkpatternusage', [PATTERN_ROUTE, PATTERN_TRANSLATION]),
  );
  for (let k = 0; k < patternNeed; k++) {
    const site = siteOf(plan, k);
    const rows = siteRows[site.index] as SiteRows;
    const round = Math.floor(k / plan.sites.length);
    if (k % 5 < 3) {
      ins('numplan', {
        dnorpattern: `9.1${String(200 + round).padStart(3, '0')}[2-9]XXXXXX`,
        fkroutepartition: rows.pstn.pkid,
        description: `${site.city} PSTN area ${200 + round}`,
        tkpatternusage: PATTERN_ROUTE,
      });
    } else {
      ins('numplan', {
        dnorpattern: `\\+1${String(200 + round).padStart(3, '0')}55${String(site.index).padStart(2, '0')}XXX`,
        fkroutepartition: rows.xlate.pkid,
        description: `${site.city} DID range ${round} to extensions`,
        tkpatternusage: PATTERN_TRANSLATION,
      });
    }
  }
  return { nodes: [CUCM_PUBLISHER, ...subs], phones };
}
