/**
 * The lab's own RisPort70 WSDL, written for the project from the operations it simulates (selectCmDevice,
 * selectCmDeviceExt, selectCtiItem). Element names are the public API's (Cisco's RISService70.wsdl,
 * ../shared/fixtures/cucm-ris-schema); the document is built by the serviceability services' builder.
 */
import type { Field, WsdlOperation } from '../../serviceability/wsdl.ts';
import { wsdlDocument, XSD } from '../../serviceability/wsdl.ts';

export const RIS_NAMESPACE = 'http://schemas.cisco.com/ast/soap';

const T = 'tns:';
const S = XSD.string;
const U = XSD.unsignedInt;
const B = XSD.boolean;

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

/**
 * RisPort70 as the node describes it: selectCmDeviceExt answers selectCmDeviceResponse, as Cisco's WSDL
 * declares; a 'cucm15' node wraps each answer in its `...Return` element, a 'legacy' one does not.
 */
export function risWsdl(location: string, shape: 'cucm15' | 'legacy'): string {
  const select: Field[] = [
    ['StateInfo', S],
    ['CmSelectionCriteria', `${T}CmSelectionCriteria`],
  ];
  const answer = (wrapper: string, result: string): Field[] =>
    shape === 'cucm15'
      ? [[wrapper, `${T}${wrapper}`]]
      : [
          [result, `${T}${result}`],
          ['StateInfo', S],
        ];
  const operations: WsdlOperation[] = [
    { name: 'selectCmDevice', input: select, output: answer('selectCmDeviceReturn', 'SelectCmDeviceResult') },
    { name: 'selectCmDeviceExt', input: select, output: [], answeredAs: 'selectCmDevice' },
    {
      name: 'selectCtiItem',
      input: [
        ['StateInfo', S],
        ['CtiSelectionCriteria', `${T}CtiSelectionCriteria`],
      ],
      output: answer('selectCtiItemReturn', 'SelectCtiItemResult'),
    },
  ];
  return wsdlDocument({
    service: 'RISService70',
    port: 'RisPort70',
    portType: 'RisPortType',
    binding: 'RisBinding',
    namespace: RIS_NAMESPACE,
    location,
    types: TYPES,
    operations,
    comment: 'RisPort70 subset simulated by the uc-mcp-server lab; written for the project.',
    nillable: true,
    optional: true,
  });
}
