// Reads the ControlCenterServices answers (the response element inside the SOAP Body): the
// ServiceInformationResponse of soapGetServiceStatus and soapDoControlServices (ReturnCode, ReasonCode,
// ReasonString, ServiceInfoList/item with ServiceName, ServiceStatus, ReasonCode, ReasonCodeString,
// StartTime, UpTime) and the StaticServiceList of soapGetStaticServiceList (Services/item with
// ServiceName, ServiceType, Deployable, GroupName, DependentServices/Service). Names: the WSDL of Cisco's
// serviceability samples (CiscoDevNet/serviceability-python-zeep-samples, schema/ControlCenterServices.wsdl).
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import type { XmlNode } from '../../node/xml-text.ts';
import { child, isNode, list, text } from '../../node/xml-text.ts';

/** ServiceStatus values of the WSDL's enumeration. */
export const SERVICE_STATES = ['Started', 'Stopped', 'Starting', 'Stopping', 'Unknown'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

export interface ServiceInfo {
  name: string;
  status: ServiceState;
  reason_code: number | null;
  /** The node's words for the reason code ("Service Not Activated"...); null when it gave none. */
  reason: string | null;
  start_time: string | null;
  uptime_seconds: number | null;
}

export interface ServiceInformation {
  return_code: string | null;
  reason_code: number | null;
  reason: string | null;
  services: ServiceInfo[];
}

export interface ServiceSpecification {
  name: string;
  type: string | null;
  deployable: boolean;
  group: string | null;
  dependent_services: string[];
}

function int(node: XmlNode, name: string): number | null {
  const t = text(node, name)?.trim();
  if (t === undefined || t === '' || !/^-?\d{1,15}$/.test(t)) return null;
  return Number(t);
}

function str(node: XmlNode, name: string): string | null {
  const t = text(node, name)?.trim();
  return t === undefined || t === '' ? null : t;
}

/** The ServiceInformationResponse held by `response` (the operation's Response element) under `returnElement`. */
export function readServiceInformation(
  response: XmlNode,
  returnElement: string,
  host: string,
): ServiceInformation {
  const ret = child(response, returnElement);
  if (!ret)
    throw new ServiceabilityError(`the ControlCenterServices answer of ${host} has no ${returnElement}`);
  const services = list(child(ret, 'ServiceInfoList')?.item).map((item): ServiceInfo => {
    const status = str(item, 'ServiceStatus');
    return {
      name: str(item, 'ServiceName') ?? '',
      // A value outside the WSDL's enumeration is reported as Unknown rather than passed on as a state.
      status: SERVICE_STATES.find((s) => s === status) ?? 'Unknown',
      reason_code: int(item, 'ReasonCode'),
      reason: str(item, 'ReasonCodeString'),
      start_time: str(item, 'StartTime'),
      uptime_seconds: int(item, 'UpTime'),
    };
  });
  return {
    return_code: str(ret, 'ReturnCode'),
    reason_code: int(ret, 'ReasonCode'),
    reason: str(ret, 'ReasonString'),
    services: services.filter((s) => s.name !== ''),
  };
}

export function readStaticServiceList(response: XmlNode, host: string): ServiceSpecification[] {
  const ret = child(response, 'soapGetStaticServiceListReturn');
  if (!ret)
    throw new ServiceabilityError(
      `the ControlCenterServices answer of ${host} has no soapGetStaticServiceListReturn`,
    );
  return list(child(ret, 'Services')?.item)
    .map((item): ServiceSpecification => ({
      name: str(item, 'ServiceName') ?? '',
      type: str(item, 'ServiceType'),
      deployable: str(item, 'Deployable')?.toLowerCase() === 'true',
      group: str(item, 'GroupName'),
      dependent_services: dependents(child(item, 'DependentServices')),
    }))
    .filter((s) => s.name !== '');
}

function dependents(node: XmlNode | undefined): string[] {
  if (!isNode(node)) return [];
  const v = node.Service;
  const values = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return values.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim());
}
