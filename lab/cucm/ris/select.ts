import type { Database, Row } from '../../informix/database.ts';
import type { XmlObject } from '../../xml/parse.ts';
import { asArray, childOf, childText, isObject } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import { CLASS_PHONE, CLASS_TRUNK, PROTOCOLS } from '../db/types.ts';
import type { Registration, RisState } from './registrations.ts';

export interface Criteria {
  max: number;
  deviceClass: string;
  model: number;
  status: string;
  nodeName: string;
  selectBy: string;
  items: RegExp[];
  protocol: string;
}

export interface Entry {
  device: Readonly<Row>;
  lines: string[];
  registration: Registration;
}

export function readCriteria(req: XmlObject, maxPerAnswer: number): Criteria {
  const c = childOf(req, 'CmSelectionCriteria');
  const text = (name: string, fallback: string): string => {
    const v = childText(c, name);
    return v === undefined || v === '' ? fallback : v;
  };
  const selectItems = childOf(c, 'SelectItems');
  const items = asArray(isObject(selectItems) ? selectItems.item : undefined)
    .map((i) => childText(i, 'Item') ?? '')
    .filter((s) => s !== '')
    .map(
      (pattern) =>
        new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\/]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i'),
    );
  const requested = Number(text('MaxReturnedDevices', String(maxPerAnswer)));
  return {
    max: Math.max(0, Math.min(Number.isFinite(requested) ? requested : maxPerAnswer, maxPerAnswer)),
    deviceClass: text('DeviceClass', 'Any'),
    model: Number(text('Model', '255')),
    status: text('Status', 'Any'),
    nodeName: text('NodeName', ''),
    selectBy: text('SelectBy', 'Name'),
    items,
    protocol: text('Protocol', 'Any'),
  };
}

function risClass(device: Readonly<Row>): string {
  if (device.tkclass === CLASS_PHONE) return 'Phone';
  if (device.tkclass === CLASS_TRUNK) return 'SIPTrunk';
  return 'Unknown';
}

export function linesOf(db: Database, device: Readonly<Row>): string[] {
  return [...db.table('devicenumplanmap').lookup('fkdevice', device.pkid)]
    .sort((a, b) => Number(a.numplanindex) - Number(b.numplanindex))
    .map((m) => db.table('numplan').byPkid(m.fknumplan)?.dnorpattern ?? '');
}

/** Every (node, device) record matching the criteria, node by node in the cluster's order, by name. */
export function matchingEntries(db: Database, ris: RisState, c: Criteria): Map<string, Entry[]> {
  const byNode = new Map<string, Entry[]>(ris.nodes.map((n) => [n, []]));
  const devices = db.table('device');
  const names = [...ris.registrations.keys()].sort();
  for (const name of names) {
    const device = devices.findBy('name', name);
    // A device deleted through AXL is gone from RIS too.
    if (!device) continue;
    if (c.deviceClass !== 'Any' && risClass(device).toLowerCase() !== c.deviceClass.toLowerCase()) continue;
    if (c.model !== 255 && String(c.model) !== device.tkmodel) continue;
    if (c.protocol !== 'Any' && (PROTOCOLS[device.tkdeviceprotocol ?? ''] ?? 'Unknown') !== c.protocol)
      continue;
    let lines: string[] | undefined;
    for (const r of ris.registrations.get(name) ?? []) {
      if (c.status !== 'Any' && r.status.toLowerCase() !== c.status.toLowerCase()) continue;
      if (c.nodeName !== '' && r.node.toLowerCase() !== c.nodeName.toLowerCase()) continue;
      lines ??= linesOf(db, device);
      if (c.items.length > 0 && !selected(c, device, r, lines)) continue;
      byNode.get(r.node)?.push({ device, lines, registration: r });
    }
  }
  return byNode;
}

function selected(c: Criteria, device: Readonly<Row>, r: Registration, lines: string[]): boolean {
  const values =
    c.selectBy === 'IPV4Address'
      ? [r.ip]
      : c.selectBy === 'DirNumber'
        ? lines
        : c.selectBy === 'Description'
          ? [device.description ?? '']
          : [device.name ?? ''];
  return c.items.some((re) => values.some((v) => re.test(v)));
}

/** A CmDevice element (unqualified names; the caller qualifies them). */
export function cmDevice(e: Entry): XmlOutObject {
  const { device, registration: r } = e;
  const protocol = PROTOCOLS[device.tkdeviceprotocol ?? ''] ?? 'Unknown';
  const isPhone = device.tkclass === CLASS_PHONE;
  return {
    Name: device.name,
    DirNumber: e.lines.length > 0 ? `${e.lines[0]}-${r.status}` : null,
    DeviceClass: risClass(device),
    Model: device.tkmodel,
    Product: device.tkproduct,
    BoxProduct: 0,
    Httpd: isPhone ? 'Yes' : 'No',
    RegistrationAttempts: 0,
    IsCtiControllable: isPhone,
    LoginUserId: r.loginUserId ?? null,
    Status: r.status,
    StatusReason: r.statusReason,
    PerfMonObject: isPhone ? 2 : 0,
    DChannel: 0,
    Description: device.description,
    H323Trunk: {
      ConfigName: null,
      TechPrefix: null,
      Zone: null,
      RemoteCmServer1: null,
      RemoteCmServer2: null,
      RemoteCmServer3: null,
      AltGkList: null,
      ActiveGk: null,
      CallSignalAddr: null,
      RasAddr: null,
    },
    TimeStamp: r.timestamp,
    Protocol: protocol,
    NumOfLines: e.lines.length,
    LinesStatus:
      e.lines.length > 0
        ? {
            item: e.lines.map((dn) => ({
              DirectoryNumber: dn,
              Status: r.status === 'Registered' ? 'Registered' : 'UnRegistered',
            })),
          }
        : null,
    ActiveLoadID: r.activeLoad,
    InactiveLoadID: r.activeLoad,
    DownloadStatus: 'Unknown',
    DownloadFailureReason: null,
    DownloadServer: null,
    IPAddress: { item: { IP: r.ip, IPAddrType: 'ipv4', Attribute: 'Unknown' } },
  };
}
