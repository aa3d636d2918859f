/**
 * The lab's own DimeGetFileService WSDL, written for the project from the public names (the GetOneFile
 * operation and its FileName, as the public cisco-dime client sends them; developer.cisco.com's Log
 * Collection pages name the service). A real node's is an Axis 1 rpc/encoded document whose answer
 * carries the file as an attachment; no public copy of it was read, so this one is document/literal
 * with the answer's GetOneFileReturn as a string (the attachment itself is outside the WSDL's reach).
 */
import { wsdlDocument, XSD } from '../wsdl.ts';

export function getFileWsdl(location: string): string {
  return wsdlDocument({
    service: 'DimeGetFileService',
    port: 'DimeGetFileService',
    portType: 'DimeGetFile',
    binding: 'DimeGetFileServiceSoapBinding',
    namespace: 'http://schemas.cisco.com/ast/soap/',
    location,
    types: {},
    comment:
      'DimeGetFileService of the ucmcp lab, written for the project from the public GetOneFile names; not Cisco’s file.',
    operations: [
      { name: 'GetOneFile', input: [['FileName', XSD.string]], output: [['GetOneFileReturn', XSD.string]] },
    ],
  });
}
