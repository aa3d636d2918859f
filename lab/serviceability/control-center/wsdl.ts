/**
 * The lab's own ControlCenterServices WSDL, written for the project from the public API's names (the
 * WSDL a node serves at /controlcenterservice2/services/ControlCenterServices?wsdl, as Cisco's
 * serviceability samples ship it: CiscoDevNet/serviceability-python-zeep-samples,
 * schema/ControlCenterServices.wsdl): its types, enumerations, nillable elements and binding name
 * ControlCenterServicesBinding, which clients name when they bind (zeep's create_service). Only the
 * operations the lab answers are declared.
 */
import type { Field } from '../wsdl.ts';
import { wsdlDocument, XSD } from '../wsdl.ts';

const T = 'tns:';
const S = XSD.string;
const I = 'xsd:integer';

const TYPES: Record<string, Field[]> = {
  DependentServices: [['Service', S, true]],
  ArrayOfServices: [['item', S, true]],
  ServiceSpecification: [
    ['ServiceName', S],
    ['ServiceType', `${T}ServiceTypes`],
    ['Deployable', XSD.boolean],
    ['GroupName', S],
    ['DependentServices', `${T}DependentServices`],
  ],
  ArrayOfServiceSpecification: [['item', `${T}ServiceSpecification`, true]],
  StaticServiceList: [['Services', `${T}ArrayOfServiceSpecification`]],
  ServiceInformation: [
    ['ServiceName', S],
    ['ServiceStatus', `${T}ServiceStatus`],
    ['ReasonCode', I],
    ['ReasonCodeString', S],
    ['StartTime', S],
    ['UpTime', I],
  ],
  ArrayOfServiceInformation: [['item', `${T}ServiceInformation`, true]],
  ServiceInformationResponse: [
    ['ReturnCode', S],
    ['ReasonCode', I],
    ['ReasonString', S],
    ['ServiceInfoList', `${T}ArrayOfServiceInformation`],
  ],
  ControlServiceRequest: [
    ['NodeName', S],
    ['ControlType', `${T}ControlType`],
    ['ServiceList', `${T}ArrayOfServices`],
  ],
};

export function controlCenterWsdl(location: string): string {
  return wsdlDocument({
    service: 'ControlCenterServices',
    port: 'ControlCenterServicesPort',
    portType: 'ControlCenterServicesPort',
    binding: 'ControlCenterServicesBinding',
    namespace: 'http://schemas.cisco.com/ast/soap',
    location,
    types: TYPES,
    enums: {
      ServiceTypes: ['Service', 'Servlet'],
      ServiceStatus: ['Started', 'Stopped', 'Starting', 'Stopping', 'Unknown'],
      ControlType: ['Start', 'Stop', 'Restart'],
    },
    nillable: true,
    operations: [
      {
        name: 'soapGetStaticServiceList',
        input: [['ServiceInformationResponse', S]],
        output: [['soapGetStaticServiceListReturn', `${T}StaticServiceList`]],
      },
      {
        name: 'soapGetServiceStatus',
        input: [['ServiceStatus', S, true]],
        output: [['soapGetServiceStatusReturn', `${T}ServiceInformationResponse`]],
      },
      {
        name: 'soapDoControlServices',
        input: [['ControlServiceRequest', `${T}ControlServiceRequest`]],
        output: [['soapDoControlServicesReturn', `${T}ServiceInformationResponse`]],
      },
    ],
    comment: 'ControlCenterServices subset simulated by the uc-mcp-server lab; written for the project.',
  });
}
