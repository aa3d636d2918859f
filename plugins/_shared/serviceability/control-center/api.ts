// ControlCenterServices as this client calls it. Names are the API's: the path
// /controlcenterservice2/services/ControlCenterServices (developer.cisco.com, Control Center Services API,
// https://developer.cisco.com/docs/sxml/control-center-services-api/), the operations soapGetServiceStatus,
// soapGetStaticServiceList and soapDoControlServices and their elements ServiceStatus,
// ServiceInformationResponse, ControlServiceRequest, NodeName, ControlType (Start, Stop, Restart) and
// ServiceList/item (the WSDL Cisco ships with its samples: CiscoDevNet/serviceability-python-zeep-samples,
// schema/ControlCenterServices.wsdl). "All Control Center Services operations work only on the local node
// identified by the NodeName element" (same API page): every node is asked at its own address.
import { exceededAllowedRate, type ServiceabilityApi } from '../api.ts';
import type { SoapFields } from '../envelope.ts';

/**
 * The node's own budget for the API. No Cisco document read here gives it; a public Control Center
 * client (phnowicki/serviceabilitytools, serviceabilitytools.pl) plans 15 status requests a minute per
 * node and backs off on the fault "Exceeded allowed rate", which is what is assumed here.
 */
export const CONTROL_CENTER_API: ServiceabilityApi = {
  name: 'ControlCenterServices',
  path: '/controlcenterservice2/services/ControlCenterServices',
  namespace: 'http://schemas.cisco.com/ast/soap',
  perMinute: 15,
  rateFault: exceededAllowedRate,
};

/** Elements always lists in the answers: ServiceInfoList/item, Services/item, DependentServices/Service. */
export const CONTROL_CENTER_ARRAYS = ['item', 'Service'] as const;

export const CONTROL_TYPES = ['Start', 'Stop', 'Restart'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

/** soapGetServiceStatus: the named services, or every service when `services` is empty. */
export function serviceStatusFields(services: readonly string[]): SoapFields {
  // An empty ServiceStatus asks for every service (Cisco's sample sends soapGetServiceStatus('')).
  return { ServiceStatus: services.length > 0 ? [...services] : [''] };
}

/** soapGetStaticServiceList: the node ignores the value of ServiceInformationResponse. */
export function staticServiceListFields(): SoapFields {
  return { ServiceInformationResponse: '' };
}

/** soapDoControlServices on `nodeName`, the node the request goes to (the API acts on it only). */
export function controlServicesFields(
  nodeName: string,
  type: ControlType,
  services: readonly string[],
): SoapFields {
  return {
    ControlServiceRequest: { NodeName: nodeName, ControlType: type, ServiceList: { item: [...services] } },
  };
}
