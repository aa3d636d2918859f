/**
 * The lab's own RisPort70 WSDL, written for the project from the operations it simulates (selectCmDevice,
 * selectCmDeviceExt, selectCtiItem). Element names are the public API's; the document is generated from the
 * tables below.
 */
type Field = [name: string, type: string, repeated?: boolean];

const T = 'tns:';
const S = 'xsd:string';
const U = 'xsd:unsignedInt';
const B = 'xsd:boolean';

const TYPES: Record<string, Field[]> = {
  CmSelectionCriteria: [
    ['MaxReturnedDevices', U],
    ['DeviceClass', S],
    ['Model', U],
    ['Status', S],
    ['NodeName', S],
    ['SelectBy', S],
    ['SelectItems', `${T}ArrayOfSelectItem`],
    ['Protocol', S],
    ['DownloadStatus', S],
  ],
  SelectItem: [['Item', S]],
  ArrayOfSelectItem: [['item', `${T}SelectItem`, true]],
  SelectCmDeviceResult: [
    ['TotalDevicesFound', U],
    ['CmNodes', `${T}ArrayOfCmNode`],
  ],
  ArrayOfCmNode: [['item', `${T}CmNode`, true]],
  CmNode: [
    ['ReturnCode', S],
    ['Name', S],
    ['NoChange', B],
    ['CmDevices', `${T}ArrayOfCmDevice`],
  ],
  ArrayOfCmDevice: [['item', `${T}CmDevice`, true]],
  CmDevice: [
    ['Name', S],
    ['DirNumber', S],
    ['DeviceClass', S],
    ['Model', U],
    ['Product', U],
    ['BoxProduct', U],
    ['Httpd', S],
    ['RegistrationAttempts', U],
    ['IsCtiControllable', B],
    ['LoginUserId', S],
    ['Status', S],
    ['StatusReason', U],
    ['PerfMonObject', U],
    ['DChannel', U],
    ['Description', S],
    ['H323Trunk', `${T}H323Trunk`],
    ['TimeStamp', U],
    ['Protocol', S],
    ['NumOfLines', U],
    ['LinesStatus', `${T}ArrayOfCmDevSingleLineStatus`],
    ['ActiveLoadID', S],
    ['InactiveLoadID', S],
    ['DownloadStatus', S],
    ['DownloadFailureReason', S],
    ['DownloadServer', S],
    ['IPAddress', `${T}ArrayOfIPAddressArrayType`],
  ],
  H323Trunk: [
    'ConfigName',
    'TechPrefix',
    'Zone',
    'RemoteCmServer1',
    'RemoteCmServer2',
    'RemoteCmServer3',
    'AltGkList',
    'ActiveGk',
    'CallSignalAddr',
    'RasAddr',
  ].map((n): Field => [n, S]),
  ArrayOfCmDevSingleLineStatus: [['item', `${T}CmDevSingleLineStatus`, true]],
  CmDevSingleLineStatus: [
    ['DirectoryNumber', S],
    ['Status', S],
  ],
  ArrayOfIPAddressArrayType: [['item', `${T}IPAddressArrayType`, true]],
  IPAddressArrayType: [
    ['IP', S],
    ['IPAddrType', S],
    ['Attribute', S],
  ],
  selectCmDeviceReturn: [
    ['SelectCmDeviceResult', `${T}SelectCmDeviceResult`],
    ['StateInfo', S],
  ],
  CtiSelectionCriteria: [
    ['MaxReturnedItems', U],
    ['CtiMgrClass', S],
    ['Status', S],
    ['NodeName', S],
    ['SelectAppBy', S],
    ['AppItems', `${T}ArrayOfSelectAppItem`],
    ['DevNames', `${T}ArrayOfSelectDevName`],
    ['DirNumbers', `${T}ArrayOfSelectDirNumber`],
  ],
  SelectAppItem: [['AppItem', S]],
  ArrayOfSelectAppItem: [['item', `${T}SelectAppItem`, true]],
  SelectDevName: [['DevName', S]],
  ArrayOfSelectDevName: [['item', `${T}SelectDevName`, true]],
  SelectDirNumber: [['DirNumber', S]],
  ArrayOfSelectDirNumber: [['item', `${T}SelectDirNumber`, true]],
  selectCtiItemReturn: [
    ['SelectCtiItemResult', `${T}SelectCtiItemResult`],
    ['StateInfo', S],
  ],
  SelectCtiItemResult: [
    ['TotalItemsFound', U],
    ['CtiNodes', `${T}ArrayOfCtiNode`],
  ],
  ArrayOfCtiNode: [['item', `${T}CtiNode`, true]],
  CtiNode: [
    ['ReturnCode', S],
    ['Name', S],
    ['NoChange', B],
    ['CtiItems', `${T}ArrayOfCtiItem`],
  ],
  ArrayOfCtiItem: [['item', `${T}CtiItem`, true]],
  CtiItem: [
    ['AppId', S],
    ['UserId', S],
    ['AppIpAddr', S],
    ['AppIpv6Addr', S],
    ['AppStatus', S],
    ['AppStatusReason', U],
    ['AppTimeStamp', U],
    ['CtiDevice', `${T}CtiDevice`],
    ['CtiLine', `${T}CtiLine`],
  ],
  CtiDevice: [
    ['AppControlsMedia', B],
    ['DeviceName', S],
    ['DeviceStatus', S],
    ['DeviceStatusReason', U],
    ['DeviceTimeStamp', U],
  ],
  CtiLine: [
    ['DirNumber', S],
    ['LineStatus', S],
    ['LineStatusReason', U],
    ['LineTimeStamp', U],
  ],
};

function sequence(fields: Field[], indent: string): string {
  return fields
    .map(
      ([name, type, repeated]) =>
        `${indent}<xsd:element name="${name}" type="${type}" minOccurs="0"${repeated ? ' maxOccurs="unbounded"' : ''} nillable="true"/>`,
    )
    .join('\n');
}

const OPERATIONS = ['selectCmDevice', 'selectCmDeviceExt'];

export function risWsdl(location: string, shape: 'cucm15' | 'legacy'): string {
  const complexTypes = Object.entries(TYPES)
    .map(
      ([name, fields]) =>
        `      <xsd:complexType name="${name}">\n        <xsd:sequence>\n${sequence(fields, '          ')}\n        </xsd:sequence>\n      </xsd:complexType>`,
    )
    .join('\n');
  const request: Field[] = [
    ['StateInfo', S],
    ['CmSelectionCriteria', `${T}CmSelectionCriteria`],
  ];
  const response: Field[] =
    shape === 'cucm15'
      ? [['selectCmDeviceReturn', `${T}selectCmDeviceReturn`]]
      : [
          ['SelectCmDeviceResult', `${T}SelectCmDeviceResult`],
          ['StateInfo', S],
        ];
  const element = (name: string, fields: Field[]): string =>
    `      <xsd:element name="${name}">\n        <xsd:complexType>\n          <xsd:sequence>\n${sequence(fields, '            ')}\n          </xsd:sequence>\n        </xsd:complexType>\n      </xsd:element>`;
  const ctiResponse: Field[] =
    shape === 'cucm15'
      ? [['selectCtiItemReturn', `${T}selectCtiItemReturn`]]
      : [
          ['SelectCtiItemResult', `${T}SelectCtiItemResult`],
          ['StateInfo', S],
        ];
  const elements = [
    ...OPERATIONS.map((op) => element(op, request)),
    element('selectCmDeviceResponse', response),
    element('selectCtiItem', [
      ['StateInfo', S],
      ['CtiSelectionCriteria', `${T}CtiSelectionCriteria`],
    ]),
    element('selectCtiItemResponse', ctiResponse),
  ].join('\n');
  const messages = [...OPERATIONS, 'selectCtiItem']
    .map(
      (op) =>
        `  <wsdl:message name="${op}Request">\n    <wsdl:part name="parameters" element="tns:${op}"/>\n  </wsdl:message>`,
    )
    .join('\n');
  const portOps = [...OPERATIONS, 'selectCtiItem']
    .map((op) => {
      const output = op === 'selectCtiItem' ? 'selectCtiItemResponse' : 'selectCmDeviceResponse';
      return `    <wsdl:operation name="${op}">\n      <wsdl:input message="tns:${op}Request"/>\n      <wsdl:output message="tns:${output}"/>\n    </wsdl:operation>`;
    })
    .join('\n');
  const bindingOps = [...OPERATIONS, 'selectCtiItem']
    .map(
      (op) =>
        `    <wsdl:operation name="${op}">\n      <soap:operation soapAction="${op}"/>\n      <wsdl:input><soap:body use="literal"/></wsdl:input>\n      <wsdl:output><soap:body use="literal"/></wsdl:output>\n    </wsdl:operation>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- RisPort70 subset simulated by the uc-mcp-server lab; written for the project. -->
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://schemas.cisco.com/ast/soap" targetNamespace="http://schemas.cisco.com/ast/soap">
  <wsdl:types>
    <xsd:schema targetNamespace="http://schemas.cisco.com/ast/soap" elementFormDefault="qualified">
${elements}
${complexTypes}
    </xsd:schema>
  </wsdl:types>
${messages}
  <wsdl:message name="selectCmDeviceResponse">
    <wsdl:part name="parameters" element="tns:selectCmDeviceResponse"/>
  </wsdl:message>
  <wsdl:message name="selectCtiItemResponse">
    <wsdl:part name="parameters" element="tns:selectCtiItemResponse"/>
  </wsdl:message>
  <wsdl:portType name="RisPortType">
${portOps}
  </wsdl:portType>
  <wsdl:binding name="RisBinding" type="tns:RisPortType">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
${bindingOps}
  </wsdl:binding>
  <wsdl:service name="RISService70">
    <wsdl:port name="RisPort70" binding="tns:RisBinding">
      <soap:address location="${location}"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>
`;
}
