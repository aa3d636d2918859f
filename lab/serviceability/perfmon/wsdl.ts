// The lab's PerfmonService WSDL, written for the project from the public API's element names (the WSDL a
// node serves at /perfmonservice2/services/PerfmonService?wsdl, as Cisco's serviceability samples ship it:
// CiscoDevNet/serviceability-python-zeep-samples, schema/PerfmonService.wsdl). Names, simple-content
// name types and binding are the API's; the document is generated from these tables.
import type { Field, WsdlOperation } from '../wsdl.ts';
import { wsdlDocument, XSD } from '../wsdl.ts';

export const PERFMON_PATH = '/perfmonservice2/services/PerfmonService';
export const PERFMON_NAMESPACE = 'http://schemas.cisco.com/ast/soap';

const T = 'tns:';

const TYPES: Record<string, Field[]> = {
  RequestArrayOfCounterType: [['Counter', `${T}CounterType`, true]],
  CounterType: [['Name', `${T}CounterNameType`]],
  CounterInfoType: [
    ['Name', `${T}CounterNameType`],
    ['Value', XSD.long],
    ['CStatus', XSD.unsignedInt],
  ],
  InstanceType: [['Name', `${T}InstanceNameType`]],
  ArrayOfCounterType: [['item', `${T}CounterType`, true]],
  ObjectInfoType: [
    ['Name', `${T}ObjectNameType`],
    ['MultiInstance', XSD.boolean],
    ['ArrayOfCounter', `${T}ArrayOfCounterType`],
  ],
};

/** The API's name types: strings as simple content (zeep reads them as `_value_1`, as on a real node). */
const NAME_TYPES = ['CounterNameType', 'ObjectNameType', 'InstanceNameType', 'SessionHandleType'];

const OPERATIONS: WsdlOperation[] = [
  { name: 'perfmonOpenSession', input: [], output: [['perfmonOpenSessionReturn', `${T}SessionHandleType`]] },
  {
    name: 'perfmonAddCounter',
    input: [
      ['SessionHandle', `${T}SessionHandleType`],
      ['ArrayOfCounter', `${T}RequestArrayOfCounterType`],
    ],
    output: [],
  },
  {
    name: 'perfmonRemoveCounter',
    input: [
      ['SessionHandle', `${T}SessionHandleType`],
      ['ArrayOfCounter', `${T}RequestArrayOfCounterType`],
    ],
    output: [],
  },
  {
    name: 'perfmonCollectSessionData',
    input: [['SessionHandle', `${T}SessionHandleType`]],
    output: [['perfmonCollectSessionDataReturn', `${T}CounterInfoType`, true]],
  },
  { name: 'perfmonCloseSession', input: [['SessionHandle', `${T}SessionHandleType`]], output: [] },
  {
    name: 'perfmonListInstance',
    input: [
      ['Host', XSD.string],
      ['Object', `${T}ObjectNameType`],
    ],
    output: [['perfmonListInstanceReturn', `${T}InstanceType`, true]],
  },
  {
    name: 'perfmonQueryCounterDescription',
    input: [['Counter', `${T}CounterNameType`]],
    output: [['perfmonQueryCounterDescriptionReturn', XSD.string]],
  },
  {
    name: 'perfmonListCounter',
    input: [['Host', XSD.string]],
    output: [['perfmonListCounterReturn', `${T}ObjectInfoType`, true]],
  },
  {
    name: 'perfmonCollectCounterData',
    input: [
      ['Host', XSD.string],
      ['Object', `${T}ObjectNameType`],
    ],
    output: [['perfmonCollectCounterDataReturn', `${T}CounterInfoType`, true]],
  },
];

export function perfmonWsdl(location: string): string {
  const doc = wsdlDocument({
    service: 'PerfmonService',
    port: 'PerfmonPort',
    portType: 'PerfmonPortType',
    binding: 'PerfmonBinding',
    namespace: PERFMON_NAMESPACE,
    location,
    types: TYPES,
    operations: OPERATIONS,
    comment: 'PerfmonService as simulated by the uc-mcp-server lab; written for the project.',
  });
  const simple = NAME_TYPES.map(
    (n) =>
      `      <xsd:complexType name="${n}">\n        <xsd:simpleContent>\n          <xsd:extension base="xsd:string"/>\n        </xsd:simpleContent>\n      </xsd:complexType>`,
  ).join('\n');
  return doc.replace('    </xsd:schema>', `${simple}\n    </xsd:schema>`);
}
