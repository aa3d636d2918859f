// selectCtiItem: the CTI connections each CallManager node holds, as RisPort70 reports them. Element
// names, the CtiSelectionCriteria fields and the enumerations (CtiMgrClass Provider/Device/Line,
// CtiStatus Any/Open/Closed/OpenFailed/Unknown, CtiSelectAppBy AppId/AppIPV4Address/AppIPV6Address/
// UserId) follow Cisco's RISService70.wsdl. The connections are derived from the registrations: a user
// logged in on a phone controls it from Cisco Jabber (desk-phone control opens a CTI provider as that
// user on the phone's node). The AppId text "Jabber" and the application addresses are the lab's own
// values: no public source lists what a node reports for them.
import type { Database } from '../../informix/database.ts';
import type { XmlObject } from '../../xml/parse.ts';
import { asArray, childOf, childText, isObject } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import type { Registration, RisState } from './registrations.ts';
import { linesOf } from './select.ts';

export interface CtiCriteria {
  max: number;
  mgrClass: 'Provider' | 'Device' | 'Line';
  status: string;
  nodeName: string;
  selectAppBy: string;
  appItems: RegExp[];
  devNames: RegExp[];
  dirNumbers: RegExp[];
}

const CLASSES = ['Provider', 'Device', 'Line'] as const;

function patterns(parent: XmlObject | undefined, list: string, field: string): RegExp[] {
  const holder = childOf(parent, list);
  return asArray(isObject(holder) ? holder.item : undefined)
    .map((i) => childText(i, field) ?? '')
    .filter((s) => s !== '')
    .map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\/]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i'));
}

export function readCtiCriteria(req: XmlObject, maxPerAnswer: number): CtiCriteria {
  const c = childOf(req, 'CtiSelectionCriteria');
  const crit = isObject(c) ? c : undefined;
  const text = (name: string, fallback: string): string => {
    const v = childText(c, name);
    return v === undefined || v === '' ? fallback : v;
  };
  const requested = Number(text('MaxReturnedItems', String(maxPerAnswer)));
  const mgrClass = text('CtiMgrClass', 'Provider');
  return {
    max: Math.max(0, Math.min(Number.isFinite(requested) ? requested : maxPerAnswer, maxPerAnswer)),
    mgrClass: (CLASSES as readonly string[]).includes(mgrClass)
      ? (mgrClass as CtiCriteria['mgrClass'])
      : 'Provider',
    status: text('Status', 'Any'),
    nodeName: text('NodeName', ''),
    selectAppBy: text('SelectAppBy', 'AppId'),
    appItems: patterns(crit, 'AppItems', 'AppItem'),
    devNames: patterns(crit, 'DevNames', 'DevName'),
    dirNumbers: patterns(crit, 'DirNumbers', 'DirNumber'),
  };
}

interface Provider {
  node: string;
  userId: string;
  appIp: string;
  status: 'Open' | 'Closed';
  timestamp: number;
  devices: { name: string; registration: Registration; lines: string[] }[];
}

/** One provider per (node, logged-in user), controlling the phones that user is logged in on there. */
function providers(db: Database, ris: RisState): Provider[] {
  const byKey = new Map<string, Provider>();
  const devices = db.table('device');
  for (const name of [...ris.registrations.keys()].sort()) {
    const device = devices.findBy('name', name);
    if (!device) continue;
    for (const r of ris.registrations.get(name) ?? []) {
      if (!r.loginUserId) continue;
      const key = `${r.node}\u0000${r.loginUserId}`;
      const p =
        byKey.get(key) ??
        ({
          node: r.node,
          userId: r.loginUserId,
          // The user's computer, beside the phone: the phone's address in the 10.10.40.0/24 desktop range.
          appIp: r.ip.replace(/^(\d+\.\d+)\.\d+\./, '$1.40.'),
          status: 'Closed',
          timestamp: r.timestamp,
          devices: [],
        } satisfies Provider);
      p.devices.push({ name: device.name ?? name, registration: r, lines: linesOf(db, device) });
      if (r.status === 'Registered') p.status = 'Open';
      p.timestamp = Math.max(p.timestamp, r.timestamp);
      byKey.set(key, p);
    }
  }
  return [...byKey.values()];
}

function statusOk(c: CtiCriteria, status: string): boolean {
  return c.status === 'Any' || c.status.toLowerCase() === status.toLowerCase();
}

function appSelected(c: CtiCriteria, p: Provider): boolean {
  if (c.appItems.length === 0) return true;
  const value =
    c.selectAppBy === 'UserId'
      ? p.userId
      : c.selectAppBy === 'AppIPV4Address'
        ? p.appIp
        : c.selectAppBy === 'AppIPV6Address'
          ? ''
          : 'Jabber';
  return c.appItems.some((re) => re.test(value));
}

/** The CtiItem elements matching the criteria, node by node in the cluster's order. */
export function matchingCtiItems(db: Database, ris: RisState, c: CtiCriteria): Map<string, XmlOutObject[]> {
  const byNode = new Map<string, XmlOutObject[]>(ris.nodes.map((n) => [n, []]));
  for (const p of providers(db, ris)) {
    if (c.nodeName !== '' && p.node.toLowerCase() !== c.nodeName.toLowerCase()) continue;
    if (!appSelected(c, p)) continue;
    const app = {
      AppId: 'Jabber',
      UserId: p.userId,
      AppIpAddr: p.appIp,
      AppIpv6Addr: null,
      AppStatus: p.status,
      AppStatusReason: 0,
      AppTimeStamp: p.timestamp,
    };
    const out = byNode.get(p.node);
    if (!out) continue;
    if (c.mgrClass === 'Provider') {
      if (statusOk(c, p.status)) out.push({ ...app, CtiDevice: null, CtiLine: null });
      continue;
    }
    for (const d of p.devices) {
      if (c.devNames.length > 0 && !c.devNames.some((re) => re.test(d.name))) continue;
      const deviceStatus = d.registration.status === 'Registered' ? 'Open' : 'Closed';
      const ctiDevice = {
        AppControlsMedia: false,
        DeviceName: d.name,
        DeviceStatus: deviceStatus,
        DeviceStatusReason: 0,
        DeviceTimeStamp: d.registration.timestamp,
      };
      if (c.mgrClass === 'Device') {
        if (statusOk(c, deviceStatus)) out.push({ ...app, CtiDevice: ctiDevice, CtiLine: null });
        continue;
      }
      for (const dn of d.lines) {
        if (c.dirNumbers.length > 0 && !c.dirNumbers.some((re) => re.test(dn))) continue;
        if (!statusOk(c, deviceStatus)) continue;
        out.push({
          ...app,
          CtiDevice: ctiDevice,
          CtiLine: {
            DirNumber: dn,
            LineStatus: deviceStatus,
            LineStatusReason: 0,
            LineTimeStamp: d.registration.timestamp,
          },
        });
      }
    }
  }
  return byNode;
}
