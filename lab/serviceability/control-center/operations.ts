// ControlCenterServices on one node: soapGetServiceStatus, soapGetStaticServiceList and
// soapDoControlServices over the node's live service table (lab/vos/services.ts), which the CLI reads
// too. Element names are the API's (schema/ControlCenterServices.wsdl of Cisco's serviceability zeep
// samples); "operations work only on the local node identified by the NodeName element"
// (developer.cisco.com, Control Center Services API). What a node answers beyond the WSDL (reason codes,
// an unknown name's item, the ReturnCode of a partly refused request, the StartTime layout) is the lab's
// reading, not confirmed by a Cisco document: see REASON in lab/vos/services.ts.
import type { XmlObject, XmlValue } from '../../xml/parse.ts';
import { asArray, childOf, isObject, textOf } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import type { ControlType, NodeServices, Reason, ServiceRow } from '../../vos/services.ts';
import { REASON } from '../../vos/services.ts';
import type { SoapServiceDef } from '../service.ts';
import { SoapFault } from '../service.ts';
import { controlCenterWsdl } from './wsdl.ts';

export const CONTROL_CENTER_PATH = '/controlcenterservice2/services/ControlCenterServices';
export const CONTROL_CENTER_NAMESPACE = 'http://schemas.cisco.com/ast/soap';
const CONTROL_TYPES: readonly ControlType[] = ['Start', 'Stop', 'Restart'];

export interface ControlCenterNode {
  /** Names the node answers to in NodeName: its hostname first, then its FQDN and IP. */
  names: readonly string[];
  services: NodeServices;
  now?: () => number;
}

/** ControlCenterServices on one node, for the node's HTTPS listener (lab/serviceability/mount.ts). */
export function controlCenterService(node: ControlCenterNode): SoapServiceDef {
  const now = (): number => node.now?.() ?? Date.now();
  return {
    name: 'ControlCenterServices',
    path: CONTROL_CENTER_PATH,
    namespace: CONTROL_CENTER_NAMESPACE,
    wsdl: controlCenterWsdl,
    operations: {
      soapGetServiceStatus: ({ body }) => ({
        soapGetServiceStatusReturn: status(node.services, body, now()),
      }),
      soapGetStaticServiceList: () => ({
        soapGetStaticServiceListReturn: { Services: { item: node.services.list().map(specification) } },
      }),
      soapDoControlServices: ({ body }) => ({ soapDoControlServicesReturn: control(node, body, now()) }),
    },
    perMinute: () => CONTROL_CENTER_PER_MINUTE,
    // A public client matches "Exceeded allowed rate" in this API's fault (phnowicki/serviceabilitytools);
    // the rest of the wording follows RisPort70's AxisFault and is the lab's.
    rateFault: (limit) =>
      `AxisFault: Exceeded allowed rate for Control Center services. Current allowed rate is ${limit} requests per minute.`,
  };
}

/**
 * Requests a node answers per minute. Not documented by Cisco in anything read here; a public client
 * (phnowicki/serviceabilitytools) plans 15 a minute and backs off on "Exceeded allowed rate".
 */
export const CONTROL_CENTER_PER_MINUTE = 15;

function status(services: NodeServices, body: XmlObject, now: number): XmlOutObject {
  const asked = names(body.ServiceStatus);
  // An empty ServiceStatus asks for every service (as Cisco's sample sends it: soapGetServiceStatus('')).
  const items =
    asked.length === 0
      ? services.list().map((r) => information(services, r, undefined, now))
      : asked.map((name) => {
          const row = services.find(name);
          return row ? information(services, row, undefined, now) : unknownService(name);
        });
  return response(REASON.success, items);
}

function control(node: ControlCenterNode, body: XmlObject, now: number): XmlOutObject {
  const request = childOf(body, 'ControlServiceRequest');
  if (!isObject(request)) throw new SoapFault('ControlServiceRequest is missing', 'soapenv:Client');
  const nodeName = textOf(childOf(request, 'NodeName'))?.trim() ?? '';
  if (nodeName !== '' && !node.names.some((n) => n.toLowerCase() === nodeName.toLowerCase()))
    throw new SoapFault(
      `NodeName ${nodeName} is not this node (${node.names[0] ?? ''}): Control Center operates on the local node only`,
    );
  const type = textOf(childOf(request, 'ControlType'))?.trim() ?? '';
  const controlType = CONTROL_TYPES.find((t) => t === type);
  if (!controlType)
    throw new SoapFault(`ControlType '${type}' is not one of Start, Stop, Restart`, 'soapenv:Client');
  const list = childOf(request, 'ServiceList');
  const asked = names(isObject(list) ? list.item : undefined);
  if (asked.length === 0) throw new SoapFault('ServiceList names no service', 'soapenv:Client');
  let worst: Reason = REASON.success;
  const items = asked.map((name) => {
    const outcome = node.services.control(name, controlType);
    if (outcome.reason !== REASON.success && worst === REASON.success) worst = outcome.reason;
    return outcome.row ? information(node.services, outcome.row, outcome.reason, now) : unknownService(name);
  });
  return response(worst, items);
}

/** The non-empty names of a repeated string element. */
function names(value: XmlValue | undefined): string[] {
  return asArray(value)
    .map((v) => textOf(v)?.trim() ?? '')
    .filter((n) => n !== '');
}

function response(reason: Reason, items: XmlOutObject[]): XmlOutObject {
  return {
    ReturnCode: reason === REASON.success ? '0' : '-1',
    ReasonCode: reason.code,
    ReasonString: reason === REASON.success ? '' : reason.text,
    ServiceInfoList: items.length > 0 ? { item: items } : null,
  };
}

const NIL: XmlOutObject = { '@xsi:nil': 'true' };

function information(
  services: NodeServices,
  row: ServiceRow,
  outcome: Reason | undefined,
  now: number,
): XmlOutObject {
  const reason = outcome ?? services.stoppedReason(row) ?? REASON.success;
  return {
    ServiceName: row.name,
    ServiceStatus: row.running ? 'Started' : 'Stopped',
    ReasonCode: reason.code,
    ReasonCodeString: reason === REASON.success ? '' : reason.text,
    StartTime: row.running ? startTime(row.startedAt) : NIL,
    UpTime: row.running ? Math.max(0, Math.floor((now - row.startedAt) / 1000)) : NIL,
  };
}

function unknownService(name: string): XmlOutObject {
  return {
    ServiceName: name,
    ServiceStatus: 'Unknown',
    ReasonCode: REASON.noSuchService.code,
    ReasonCodeString: REASON.noSuchService.text,
    StartTime: NIL,
    UpTime: NIL,
  };
}

function specification(row: ServiceRow): XmlOutObject {
  return {
    ServiceName: row.name,
    ServiceType: row.type,
    Deployable: row.deployable,
    GroupName: row.group,
    DependentServices: row.dependents.length > 0 ? { Service: row.dependents } : null,
  };
}

/** `Thu Nov 26 06:00:00 2026` (UTC): a ctime-like layout; the real node's layout is not documented. */
function startTime(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()] as string;
  const month = d.toUTCString().slice(8, 11);
  const time = d.toISOString().slice(11, 19);
  return `${day} ${month} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${d.getUTCFullYear()}`;
}
