// LogCollectionPortTypeService on one lab node: listNodeServiceLogs (every node of the cluster with its
// service and system logs) and selectLogFiles (this node's files of the named logs within FromDate and
// ToDate, "DownloadtoClient" only: the lab pushes nothing to an SFTP server) and GetOneFile (a listed
// file's bytes as an XOP part), answered as Axis2 MTOM as a real node does (attachments.ts). The per-node request budget: no Cisco document read for this project
// gives the figure; the lab takes the 15 a minute this server assumes (see
// plugins/_shared/serviceability/logs/api.ts) and refuses beyond it with the AxisFault wording of the
// other serviceability services ("Exceeded allowed rate for ..."), the lab's wording.
import type { XmlObject, XmlValue } from '../../xml/parse.ts';
import { asArray, childOf, isObject, textOf } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import { SOAP_ENV } from '../../cucm/axl/fault.ts';
import { axis2ContentId, mtomAnswer } from '../attachments.ts';
import type { SoapServiceDef } from '../service.ts';
import { answerEnvelope, SoapFault } from '../service.ts';
import type { ServiceabilityView } from '../services.ts';
import type { LabLogService } from './catalogue.ts';
import { filesOf, logServicesOf } from './catalogue.ts';
import { requestedFile } from './get-file.ts';
import { javaDate, parseWallDate, zoneOf } from './dates.ts';
import { LOG_COLLECTION_NAMESPACE, LOG_COLLECTION_PATH, logCollectionWsdl } from './wsdl.ts';

/** The lab's default budget per node and minute (see above). */
export const LOG_COLLECTION_PER_MINUTE = 15;

/** Files one selectLogFiles answers at most (the lab's bound; a real node's is not documented). */
export const MAX_FILES = 2000;

function text(body: XmlValue | undefined, name: string): string {
  const v = childOf(body, name);
  return (isObject(v) ? textOf(v['#text']) : textOf(v))?.trim() ?? '';
}

function items(parent: XmlValue | undefined): string[] {
  return asArray(isObject(parent) ? parent.item : undefined)
    .map((v) => (isObject(v) ? (textOf(v['#text']) ?? '') : (textOf(v) ?? '')).trim())
    .filter((s) => s !== '');
}

export function logCollectionService(view: ServiceabilityView, perMinute: () => number): SoapServiceDef {
  const services = logServicesOf(view.product);
  const find = (name: string, system: boolean): LabLogService => {
    const found = services.find((s) => s.name === name && (s.system === true) === system);
    if (!found)
      throw new SoapFault(`No such ${system ? 'system' : 'service'} log: ${name}`, 'soapenv:Client');
    return found;
  };
  const listing = (node: string): XmlOutObject => ({
    name: node,
    ServiceLog: { item: services.filter((s) => !s.system).map((s) => s.name) },
    SystemLog: { item: services.filter((s) => s.system).map((s) => s.name) },
  });
  return {
    name: 'LogCollectionPortTypeService',
    path: LOG_COLLECTION_PATH,
    namespace: LOG_COLLECTION_NAMESPACE,
    wsdl: logCollectionWsdl,
    bareRequests: { FileName: 'GetOneFile' },
    perMinute,
    rateFault: (limit) =>
      `Exceeded allowed rate for Log Collection. Current allowed rate for log collection is ${limit} requests per minute.`,
    operations: {
      listNodeServiceLogs: () =>
        mtomAnswer(
          answerEnvelope(LOG_COLLECTION_NAMESPACE, 'listNodeServiceLogs', {
            listNodeServiceLogsReturn: view.clusterNodes().map(listing),
          }),
        ),
      // The operation Cisco's sample WSDL declares on this port (schema/LogCollectionPortTypeService.wsdl
      // of CiscoDevNet/serviceability-python-zeep-samples, used by its logcollection_GetOneFile.py):
      // FileName as the Body's only element, answered with GetOneFileReturn (base64Binary, MTOM) whose
      // bytes travel as an XOP part.
      GetOneFile: ({ body }) => {
        const file = requestedFile(view, body);
        const id = axis2ContentId(1);
        const envelope =
          `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}"><soapenv:Body>` +
          `<ns1:GetOneFileReturn xmlns:ns1="${LOG_COLLECTION_NAMESPACE}"><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:${id}"/></ns1:GetOneFileReturn>` +
          `</soapenv:Body></soapenv:Envelope>`;
        return mtomAnswer(envelope, { id, data: file.content() });
      },
      selectLogFiles: ({ body }) => {
        const c = childOf(body, 'FileSelectionCriteria') as XmlObject | undefined;
        if (!isObject(c)) throw new SoapFault('FileSelectionCriteria is missing', 'soapenv:Client');
        const jobType = text(c, 'JobType');
        if (jobType !== '' && jobType !== 'DownloadtoClient')
          throw new SoapFault(`JobType ${jobType} is not served by this lab node`, 'soapenv:Client');
        const zone = zoneOf(text(c, 'TimeZone'));
        if (!zone) throw new SoapFault(`Invalid TimeZone ${text(c, 'TimeZone')}`, 'soapenv:Client');
        const bound = (name: string, open: number): number => {
          const t = text(c, name);
          if (t === '') return open;
          const at = parseWallDate(t, zone);
          if (at === undefined) throw new SoapFault(`Invalid ${name} ${t}`, 'soapenv:Client');
          return at;
        };
        // The wall dates have minutes only: ToDate covers its whole minute.
        const from = bound('FromDate', 0);
        const to = bound('ToDate', Number.MAX_SAFE_INTEGER - 60_000) + 59_999;
        if (from > to) throw new SoapFault('FromDate is after ToDate', 'soapenv:Client');
        const wanted = [
          ...items(c.ServiceLogs).map((n) => find(n, false)),
          ...items(c.SystemLogs).map((n) => find(n, true)),
        ];
        const ctx = { node: view.node, now: Date.now(), ...(view.ris ? { ris: view.ris } : {}) };
        let count = 0;
        const lists = wanted.map((s) => {
          const files = filesOf(s, ctx, from, to).slice(0, Math.max(0, MAX_FILES - count));
          count += files.length;
          return {
            name: s.name,
            SetOfFiles: {
              File: files.map((f) => ({
                name: f.name,
                absolutepath: f.path,
                filesize: String(f.content().length),
                modifiedDate: javaDate(f.modified),
              })),
            },
          };
        });
        return mtomAnswer(
          answerEnvelope(LOG_COLLECTION_NAMESPACE, 'selectLogFiles', {
            ResultSet: {
              SchemaFileSelectionResult: { Node: { name: view.node, ServiceList: { ServiceLogs: lists } } },
            },
          }),
        );
      },
    },
  };
}
