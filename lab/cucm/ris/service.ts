import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  BodyTooLargeError,
  basicCredentials,
  readBody,
  requestPath,
  send,
  sendUnauthorized,
} from '../../http/request.ts';
import type { Database } from '../../informix/database.ts';
import type { LabLog } from '../../state/log.ts';
import { childText, XmlSyntaxError } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';
import { qualify, toXml } from '../../xml/write.ts';
import { SoapShapeError, readSoapRequest } from '../axl/envelope.ts';
import { plainFaultEnvelope, SOAP_ENV } from '../axl/fault.ts';
import { authenticateAppUser } from '../db/credentials.ts';
import { ENTERPRISE_NODE } from '../db/schema.ts';
import { RIS_RATE_PARAMETER } from '../topology.ts';
import type { RisState } from './registrations.ts';
import { matchingCtiItems, readCtiCriteria } from './cti.ts';
import { cmDevice, matchingEntries, readCriteria } from './select.ts';
import type { NodeProgress } from './state-info.ts';
import { readStateInfo, writeStateInfo } from './state-info.ts';
import { risWsdl } from './wsdl.ts';

export const RIS_PATH = '/realtimeservice2/services/RISService70';
export const RIS_NAMESPACE = 'http://schemas.cisco.com/ast/soap';
/** The role RisPort authorises against (a role; the standard group that carries it has the same name). */
export const RIS_GROUP = 'Standard RealtimeAndTraceCollection';

export interface RisOptions {
  node: string;
  db: Database;
  ris: RisState;
  log: LabLog;
  maxDevicesPerAnswer: number;
  shape: 'cucm15' | 'legacy';
  fallbackRateLimit: number;
  publicAddress: () => string;
}

/** The per-minute limit: the enterprise parameter, so an AXL or SQL update of it takes effect at once. */
export function risRateLimit(db: Database, fallback: number): number {
  const node = db.table('processnode').findBy('name', ENTERPRISE_NODE);
  const row = db
    .table('processconfig')
    .rows.find((r) => r.fkprocessnode === node?.pkid && r.paramname === RIS_RATE_PARAMETER);
  const value = Number(row?.paramvalue);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export function risEndpoint(o: RisOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const { query } = requestPath(req);
    const record = (status: number, operation?: string, user?: string): void =>
      o.log.request({
        node: o.node,
        service: 'ris',
        method: req.method ?? '',
        path: RIS_PATH,
        status,
        ...(operation ? { operation } : {}),
        ...(user ? { user } : {}),
      });
    if (req.method === 'GET' && [...query.keys()].some((k) => k.toLowerCase() === 'wsdl')) {
      record(200, 'wsdl');
      send(res, 200, 'text/xml;charset=utf-8', risWsdl(`https://${o.publicAddress()}${RIS_PATH}`, o.shape));
      return;
    }
    const creds = basicCredentials(req);
    if (!creds || !authenticateAppUser(o.db, creds.user, creds.password, RIS_GROUP)) {
      record(401);
      sendUnauthorized(res, 'Cisco RIS');
      return;
    }
    if (req.method !== 'POST') {
      record(405, undefined, creds.user);
      send(res, 405, 'text/plain', 'Method Not Allowed');
      return;
    }
    const fault = (status: number, operation: string, code: string, text: string): void => {
      record(status, operation, creds.user);
      send(res, status, 'text/xml;charset=utf-8', plainFaultEnvelope(code, text));
    };
    let operation = 'unknown';
    try {
      const soap = readSoapRequest(await readBody(req, 1024 * 1024));
      operation = soap.operation;
      if (
        operation !== 'selectCmDevice' &&
        operation !== 'selectCmDeviceExt' &&
        operation !== 'selectCtiItem'
      ) {
        fault(500, operation, 'soapenv:Client', `No such operation '${operation}'`);
        return;
      }
      const limit = risRateLimit(o.db, o.fallbackRateLimit);
      if (!o.ris.window.tryTake()) {
        fault(
          500,
          operation,
          'soapenv:Server.generalException',
          `AxisFault: Exceeded allowed rate for Reatime information. Current allowed rate for realtime information is ${limit} requests per minute.`,
        );
        return;
      }
      const xml = operation === 'selectCtiItem' ? ctiAnswer(o, soap.body) : answer(o, soap.body);
      record(200, operation, creds.user);
      send(res, 200, 'text/xml;charset=utf-8', xml);
    } catch (err) {
      if (
        err instanceof XmlSyntaxError ||
        err instanceof SoapShapeError ||
        err instanceof BodyTooLargeError
      ) {
        fault(500, operation, 'soapenv:Client', err.message);
      } else throw err;
    }
  };
}

function answer(o: RisOptions, body: Parameters<typeof readCriteria>[0]): string {
  const criteria = readCriteria(body, o.maxDevicesPerAnswer);
  const offsets = readStateInfo(childText(body, 'StateInfo'));
  const byNode = matchingEntries(o.db, o.ris, criteria);
  let room = criteria.max;
  let total = 0;
  const nodes: XmlOutObject[] = [];
  const progress: NodeProgress[] = [];
  for (const [node, entries] of byNode) {
    const start = Math.min(offsets.get(node.toLowerCase()) ?? 0, entries.length);
    const page = entries.slice(start, start + room);
    room -= page.length;
    total += page.length;
    progress.push({ node, next: start + page.length, found: entries.length, returned: start + page.length });
    nodes.push({
      ReturnCode: page.length > 0 ? 'Ok' : 'NotFound',
      Name: node,
      NoChange: false,
      CmDevices: page.length > 0 ? { item: page.map(cmDevice) } : null,
    });
  }
  const result = { TotalDevicesFound: total, CmNodes: { item: nodes } };
  const stateInfo = writeStateInfo(o.ris.startedAt, progress);
  const content =
    o.shape === 'cucm15'
      ? { selectCmDeviceReturn: { SelectCmDeviceResult: result, StateInfo: stateInfo } }
      : { SelectCmDeviceResult: result, StateInfo: stateInfo };
  const response = toXml('ns1:selectCmDeviceResponse', {
    '@xmlns:ns1': RIS_NAMESPACE,
    ...(qualify(content, 'ns1') as XmlOutObject),
  });
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>${response}</soapenv:Body></soapenv:Envelope>`;
}

/** selectCtiItem: CtiNodes with their CtiItems, paged with StateInfo like selectCmDevice. */
function ctiAnswer(o: RisOptions, body: Parameters<typeof readCriteria>[0]): string {
  const criteria = readCtiCriteria(body, o.maxDevicesPerAnswer);
  const offsets = readStateInfo(childText(body, 'StateInfo'));
  let room = criteria.max;
  let total = 0;
  const nodes: XmlOutObject[] = [];
  const progress: NodeProgress[] = [];
  for (const [node, items] of matchingCtiItems(o.db, o.ris, criteria)) {
    const start = Math.min(offsets.get(node.toLowerCase()) ?? 0, items.length);
    const page = items.slice(start, start + room);
    room -= page.length;
    total += page.length;
    progress.push({ node, next: start + page.length, found: items.length, returned: start + page.length });
    nodes.push({
      ReturnCode: page.length > 0 ? 'Ok' : 'NotFound',
      Name: node,
      NoChange: false,
      CtiItems: page.length > 0 ? { item: page } : null,
    });
  }
  const result = { TotalItemsFound: total, CtiNodes: { item: nodes } };
  const stateInfo = writeStateInfo(o.ris.startedAt, progress);
  const content =
    o.shape === 'cucm15'
      ? { selectCtiItemReturn: { SelectCtiItemResult: result, StateInfo: stateInfo } }
      : { SelectCtiItemResult: result, StateInfo: stateInfo };
  const response = toXml('ns1:selectCtiItemResponse', {
    '@xmlns:ns1': RIS_NAMESPACE,
    ...(qualify(content, 'ns1') as XmlOutObject),
  });
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>${response}</soapenv:Body></soapenv:Envelope>`;
}
