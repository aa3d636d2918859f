/**
 * The lab's own LogCollectionPortTypeService WSDL, written for the project from the public API's names
 * (the WSDL a node serves at /logcollectionservice2/services/LogCollectionPortTypeService?wsdl, as
 * Cisco's serviceability samples ship it: CiscoDevNet/serviceability-python-zeep-samples,
 * schema/LogCollectionPortTypeService.wsdl, and the Log Collection API page on developer.cisco.com): the
 * operations listNodeServiceLogs, selectLogFiles and GetOneFile (FileName in, GetOneFileReturn out, both
 * bare elements as the sample's WSDL declares them), their elements (ListRequest; FileSelectionCriteria
 * with ServiceLogs, SystemLogs, SearchStr, Frequency, JobType, ToDate, FromDate, TimeZone, RelText,
 * RelTime, Port, IPAddress, UserName, Password, ZipInfo, RemoteFolder; ResultSet,
 * SchemaFileSelectionResult, Node, ServiceList, ServiceLogs, SetOfFiles, File with name, absolutepath,
 * filesize, modifiedDate), the enumerations Frequency, JobType and RelText, and the binding name
 * LogCollectionPortSoapBinding clients name when they bind.
 */
import type { Field } from '../wsdl.ts';
import { wsdlDocument, XSD } from '../wsdl.ts';

export const LOG_COLLECTION_PATH = '/logcollectionservice2/services/LogCollectionPortTypeService';
export const LOG_COLLECTION_NAMESPACE = 'http://schemas.cisco.com/ast/soap';

const T = 'tns:';
const S = XSD.string;

const TYPES: Record<string, Field[]> = {
  ArrayOfServiceLog: [['item', S, true]],
  ArrayOfSystemLog: [['item', S, true]],
  NodeServiceLogList: [
    ['name', S],
    ['ServiceLog', `${T}ArrayOfServiceLog`],
    ['SystemLog', `${T}ArrayOfSystemLog`],
  ],
  SchemaFileSelectionCriteria: [
    ['ServiceLogs', `${T}ArrayOfServiceLog`],
    ['SystemLogs', `${T}ArrayOfSystemLog`],
    ['SearchStr', S],
    ['Frequency', `${T}Frequency`],
    ['JobType', `${T}JobType`],
    ['ToDate', S],
    ['FromDate', S],
    ['TimeZone', S],
    ['RelText', `${T}RelText`],
    ['RelTime', 'xsd:byte'],
    ['Port', 'xsd:byte'],
    ['IPAddress', S],
    ['UserName', S],
    ['Password', S],
    ['ZipInfo', XSD.boolean],
    ['RemoteFolder', S],
  ],
  File: [
    ['name', S],
    ['absolutepath', S],
    ['filesize', S],
    ['modifiedDate', S],
  ],
  ArrayOfFile: [['File', `${T}File`, true]],
  ServiceLogs: [
    ['name', S],
    ['SetOfFiles', `${T}ArrayOfFile`],
  ],
  ArrayOfServiceLogs: [['ServiceLogs', `${T}ServiceLogs`, true]],
  Node: [
    ['name', S],
    ['ServiceList', `${T}ArrayOfServiceLogs`],
  ],
  SchemaFileSelectionResult: [['Node', `${T}Node`]],
  ResultSet: [['SchemaFileSelectionResult', `${T}SchemaFileSelectionResult`]],
};

export function logCollectionWsdl(location: string): string {
  return wsdlDocument({
    service: 'LogCollectionPortTypeService',
    port: 'LogCollectionPort',
    portType: 'LogCollectionPortTypeServicePortType',
    binding: 'LogCollectionPortSoapBinding',
    namespace: LOG_COLLECTION_NAMESPACE,
    location,
    types: TYPES,
    enums: {
      Frequency: ['OnDemand', 'Weekly', 'Monthly', 'Daily'],
      JobType: ['DownloadtoClient', 'PushtoSFTPServer'],
      RelText: ['None', 'Minutes', 'Hours', 'Weeks', 'Months', 'Days'],
    },
    nillable: true,
    comment:
      'LogCollectionPortTypeService of the ucmcp lab, written for the project from the public Log Collection API element names; not Cisco’s file.',
    operations: [
      {
        name: 'listNodeServiceLogs',
        input: [['ListRequest', S]],
        output: [['listNodeServiceLogsReturn', `${T}NodeServiceLogList`, true]],
      },
      {
        name: 'GetOneFile',
        input: [],
        output: [],
        bare: { input: ['FileName', S], output: ['GetOneFileReturn', XSD.base64Binary] },
      },
      {
        name: 'selectLogFiles',
        input: [['FileSelectionCriteria', `${T}SchemaFileSelectionCriteria`]],
        output: [['ResultSet', `${T}ResultSet`]],
      },
    ],
  });
}
