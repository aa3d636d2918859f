// DimeGetFileService on one lab node: GetOneFile with FileName, the absolute path selectLogFiles gave,
// answered as Axis 1 SOAP with Attachments (attachments.ts): the envelope's GetOneFileReturn refers to
// the file's part by href="cid:...", the file follows as application/octet-stream, byte for byte. Names:
// the path /logcollectionservice/services/DimeGetFileService, the operation element in
// http://schemas.cisco.com/ast/soap/ and FileName, as the public cisco-dime client
// (sieteunoseis/cisco-dime, lib/DimeGetFileService.js) sends them to real nodes; developer.cisco.com's
// Log Collection overview names the service DimeGetFile. Only files the node lists are served (the
// path must be one of them exactly): nothing else of the node's disk is reachable. The request budget is
// the node's Log Collection one (the same lab option); its fault wording is the lab's.
import type { XmlObject } from '../../xml/parse.ts';
import { childOf, isObject, textOf } from '../../xml/parse.ts';
import { contentId, swaAnswer } from '../attachments.ts';
import type { SoapServiceDef } from '../service.ts';
import { SoapFault } from '../service.ts';
import type { ServiceabilityView } from '../services.ts';
import type { LabLogFile } from './catalogue.ts';
import { filesOf, KEEP_HOURS, logServicesOf } from './catalogue.ts';
import { getFileWsdl } from './get-file-wsdl.ts';

export const GET_FILE_PATH = '/logcollectionservice/services/DimeGetFileService';
export const GET_FILE_NAMESPACE = 'http://schemas.cisco.com/ast/soap/';

/**
 * The file a GetOneFile request names by FileName, among those the node lists; a SOAP fault otherwise.
 * Shared by both ways a node serves GetOneFile (here, and LogCollectionPortTypeService's).
 */
export function requestedFile(view: ServiceabilityView, body: XmlObject): LabLogFile {
  const v = childOf(body, 'FileName');
  const path = ((isObject(v) ? textOf(v['#text']) : textOf(v)) ?? '').trim();
  if (path === '') throw new SoapFault('FileName is missing', 'soapenv:Client');
  const now = Date.now();
  const ctx = { node: view.node, now, ...(view.ris ? { ris: view.ris } : {}) };
  const file = logServicesOf(view.product)
    .flatMap((s) => filesOf(s, ctx, now - KEEP_HOURS * 3_600_000, now))
    .find((f) => f.path === path);
  if (!file) throw new SoapFault(`File ${path} not found`, 'soapenv:Client');
  return file;
}

export function getFileService(view: ServiceabilityView, perMinute: () => number): SoapServiceDef {
  return {
    name: 'DimeGetFileService',
    path: GET_FILE_PATH,
    namespace: GET_FILE_NAMESPACE,
    wsdl: getFileWsdl,
    perMinute,
    rateFault: (limit) =>
      `Exceeded allowed rate for Log Collection. Current allowed rate for log collection is ${limit} requests per minute.`,
    operations: {
      GetOneFile: ({ body }) => {
        const file = requestedFile(view, body);
        const id = contentId();
        const envelope =
          `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
          `<soapenv:Body><ns1:GetOneFileResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="${GET_FILE_NAMESPACE}">` +
          `<GetOneFileReturn href="cid:${id}" xmlns:ns2="http://xml.apache.org/xml-soap"/>` +
          `</ns1:GetOneFileResponse></soapenv:Body></soapenv:Envelope>`;
        return swaAnswer(envelope, id, file.content());
      },
    },
  };
}
