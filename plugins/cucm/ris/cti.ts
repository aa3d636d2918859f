// selectCtiItem: which applications hold CTI connections to each CallManager node, and the devices and
// lines they control (CtiSelectionCriteria and the CtiItem answer of Cisco's RISService70.wsdl). Read
// page after page with StateInfo like selectCmDevice; an item belongs to its node (a provider connection
// on another node is another connection), so nothing is merged across nodes.
import { RISError } from '../../../kernel/sdk/index.ts';
import type { HttpAnswer } from '../../_shared/axl/transport.ts';
import { soapBodyOf } from './answer.ts';
import type { PageOf } from './paging.ts';
import { RIS_NAMESPACE, SOAP_ENV } from './constants.ts';
import { child, isNode, list, text, escapeXml, type XmlNode } from './xml-text.ts';

export const CTI_OPERATION = 'selectCtiItem';
export const CTI_CLASSES = ['Provider', 'Device', 'Line'] as const;
export const CTI_STATUSES = ['Any', 'Open', 'Closed', 'OpenFailed', 'Unknown'] as const;
export const CTI_SELECT_APP_BY = ['AppId', 'AppIPV4Address', 'AppIPV6Address', 'UserId'] as const;

export interface CtiCriteria {
  maxReturnedItems: number;
  ctiMgrClass: (typeof CTI_CLASSES)[number];
  status: (typeof CTI_STATUSES)[number];
  nodeName: string;
  selectAppBy: (typeof CTI_SELECT_APP_BY)[number];
  /** Patterns with `*` wildcards, matched as `selectAppBy` says; empty: every application. */
  appItems: string[];
  devNames: string[];
  dirNumbers: string[];
}

export interface CtiItem {
  node: string;
  app_id: string;
  user_id: string;
  app_ip: string;
  app_ipv6?: string;
  app_status: string;
  app_status_reason?: number;
  /** ISO time of AppTimeStamp (seconds since the epoch on the wire). */
  app_time?: string;
  device?: { name: string; status: string; status_reason?: number; controls_media?: boolean; time?: string };
  line?: { dir_number: string; status: string; status_reason?: number; time?: string };
}

export interface CtiPage extends PageOf {
  nodes: { name: string; returnCode: string; items: CtiItem[] }[];
}

function el(name: string, value: string | number): string {
  return `<soap:${name}>${escapeXml(String(value))}</soap:${name}>`;
}

function items(outer: string, inner: string, values: string[]): string {
  return `<soap:${outer}>${values.map((v) => `<soap:item>${el(inner, v)}</soap:item>`).join('')}</soap:${outer}>`;
}

export function buildCtiEnvelope(c: CtiCriteria, stateInfo: string): string {
  const criteria =
    el('MaxReturnedItems', Math.max(1, Math.floor(c.maxReturnedItems))) +
    el('CtiMgrClass', c.ctiMgrClass) +
    el('Status', c.status) +
    el('NodeName', c.nodeName) +
    el('SelectAppBy', c.selectAppBy) +
    items('AppItems', 'AppItem', c.appItems) +
    items('DevNames', 'DevName', c.devNames) +
    items('DirNumbers', 'DirNumber', c.dirNumbers);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:soap="${RIS_NAMESPACE}"><soapenv:Body>` +
    `<soap:${CTI_OPERATION}>${el('StateInfo', stateInfo)}<soap:CtiSelectionCriteria>${criteria}</soap:CtiSelectionCriteria></soap:${CTI_OPERATION}>` +
    `</soapenv:Body></soapenv:Envelope>`
  );
}

function count(node: XmlNode | undefined, name: string): number | undefined {
  const v = text(node, name);
  const n = v === undefined || v === '' ? Number.NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function time(node: XmlNode | undefined, name: string): string | undefined {
  const seconds = count(node, name);
  return seconds !== undefined && seconds > 0 ? new Date(seconds * 1000).toISOString() : undefined;
}

function item(n: XmlNode, node: string): CtiItem {
  const d = child(n, 'CtiDevice');
  const l = child(n, 'CtiLine');
  const reason = count(n, 'AppStatusReason');
  const appTime = time(n, 'AppTimeStamp');
  const v6 = text(n, 'AppIpv6Addr');
  const deviceName = text(d, 'DeviceName');
  const dn = text(l, 'DirNumber');
  const media = text(d, 'AppControlsMedia');
  const dReason = count(d, 'DeviceStatusReason');
  const dTime = time(d, 'DeviceTimeStamp');
  const lReason = count(l, 'LineStatusReason');
  const lTime = time(l, 'LineTimeStamp');
  return {
    node,
    app_id: text(n, 'AppId') ?? '',
    user_id: text(n, 'UserId') ?? '',
    app_ip: text(n, 'AppIpAddr') ?? '',
    ...(v6 ? { app_ipv6: v6 } : {}),
    app_status: text(n, 'AppStatus') ?? '',
    ...(reason !== undefined ? { app_status_reason: reason } : {}),
    ...(appTime ? { app_time: appTime } : {}),
    ...(deviceName
      ? {
          device: {
            name: deviceName,
            status: text(d, 'DeviceStatus') ?? '',
            ...(dReason !== undefined ? { status_reason: dReason } : {}),
            ...(media === 'true' || media === 'false' ? { controls_media: media === 'true' } : {}),
            ...(dTime ? { time: dTime } : {}),
          },
        }
      : {}),
    ...(dn
      ? {
          line: {
            dir_number: dn,
            status: text(l, 'LineStatus') ?? '',
            ...(lReason !== undefined ? { status_reason: lReason } : {}),
            ...(lTime ? { time: lTime } : {}),
          },
        }
      : {}),
  };
}

export function readCtiAnswer(answer: HttpAnswer, host: string): CtiPage {
  const soapBody = soapBodyOf(answer, host);
  const response = Object.entries(soapBody).find(([k, v]) => k.endsWith('Response') && isNode(v))?.[1];
  if (!isNode(response)) throw new RISError(`the RisPort70 answer of ${host} has no response element`);
  const wrapped = child(response, 'selectCtiItemReturn');
  const holder = wrapped ?? response;
  const result = child(holder, 'SelectCtiItemResult');
  if (!result) throw new RISError(`the RisPort70 answer of ${host} has no SelectCtiItemResult`);
  const nodes = list(child(result, 'CtiNodes')?.item).map((n) => {
    const name = text(n, 'Name') ?? '';
    return {
      name,
      returnCode: text(n, 'ReturnCode') ?? '',
      items: list(child(n, 'CtiItems')?.item).map((i) => item(i, name)),
    };
  });
  return {
    shape: wrapped ? 'cucm15' : 'legacy',
    stateInfo: text(holder, 'StateInfo') ?? '',
    nodeRecords: nodes.map((n) => ({ name: n.name, returnCode: n.returnCode, records: n.items.length })),
    nodes,
    records: nodes.reduce((sum, n) => sum + n.items.length, 0),
  };
}
