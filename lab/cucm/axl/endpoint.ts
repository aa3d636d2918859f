import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticateAppUser } from '../../cucm/db/credentials.ts';
import { AXL_ROLE } from '../../cucm/db/roles.ts';
import { BodyTooLargeError, basicCredentials, readBody, send, sendUnauthorized } from '../../http/request.ts';
import type { Database } from '../../informix/database.ts';
import { DbError } from '../../informix/database.ts';
import type { LabLog } from '../../state/log.ts';
import { SlidingWindow } from '../../state/sliding-window.ts';
import { XmlSyntaxError } from '../../xml/parse.ts';
import { toXml } from '../../xml/write.ts';
import { readSoapRequest, SoapShapeError } from './envelope.ts';
import { AxlFault, faultEnvelope, SOAP_ENV } from './fault.ts';
import type { AxlOperation } from './operation.ts';
import type { AxlVersionWording } from '../versions.ts';
import { wrongVersionPage } from '../versions.ts';

export const AXL_NAMESPACE_PREFIX = 'http://www.cisco.com/AXL/API/';
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

export interface AxlEndpointOptions {
  node: string;
  db: Database;
  log: LabLog;
  operations: readonly AxlOperation[];
  /** Schema versions answered, oldest first; anything else gets HTTP 599. */
  versions: readonly string[];
  /** How the HTTP 599 page words the list (real releases differ). Default `and`. */
  versionWording?: AxlVersionWording;
  /** More writes than this within `windowMs` get HTTP 503; undefined turns throttling off. */
  writeThrottle?: { maxWrites: number; windowMs: number };
  /** Answers larger than this become the "Query request too large" fault. */
  maxResponseBytes: number;
  /** Wait this long before handling each POST (a real publisher takes tens of milliseconds). */
  serviceTimeMs?: number;
}

/**
 * The schema a request is read with: `"CUCM:DB ver=15.0 getPhone"` -> 15.0 (quotes optional). Without a
 * version in the SOAPAction, the oldest schema the node serves ("If a schema version is not specified,
 * the oldest supported schema will be used", Cisco AXL versioning guide).
 */
function requestedVersion(req: IncomingMessage, versions: readonly string[]): string | undefined {
  const header = req.headers.soapaction;
  const value = Array.isArray(header) ? header[0] : header;
  return (value ? /ver=([0-9.]+)/i.exec(value)?.[1] : undefined) ?? versions[0];
}

/** The `/axl/` endpoint of a CUCM (or IM&P) node. */
export function axlEndpoint(
  options: AxlEndpointOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const byName = new Map(options.operations.map((op) => [op.name.toLowerCase(), op]));
  const throttle = options.writeThrottle
    ? new SlidingWindow(() => options.writeThrottle?.maxWrites ?? Infinity, options.writeThrottle.windowMs)
    : undefined;
  const wrongVersion = (res: ServerResponse): void =>
    send(
      res,
      599,
      'text/html;charset=utf-8',
      wrongVersionPage(options.versions, options.versionWording ?? 'and'),
    );

  return async (req, res) => {
    const record = (status: number, operation?: string, user?: string): void =>
      options.log.request({
        node: options.node,
        service: 'axl',
        method: req.method ?? '',
        path: '/axl/',
        status,
        ...(operation ? { operation } : {}),
        ...(user ? { user } : {}),
      });
    const creds = basicCredentials(req);
    if (!creds || !authenticateAppUser(options.db, creds.user, creds.password, AXL_ROLE)) {
      record(401);
      sendUnauthorized(res, 'Cisco Unified Communications Manager');
      return;
    }
    if (req.method === 'GET') {
      record(200, undefined, creds.user);
      send(
        res,
        200,
        'text/html;charset=utf-8',
        '<html><body><h2>Cisco CallManager: AXL Web Service</h2><p>The AXL Web Service is working and accepting requests. Use HTTP POST to send a request.</p></body></html>',
      );
      return;
    }
    if (req.method !== 'POST') {
      record(405, undefined, creds.user);
      send(res, 405, 'text/plain', 'Method Not Allowed', { allow: 'GET, POST' });
      return;
    }
    if (options.serviceTimeMs) await new Promise((r) => setTimeout(r, options.serviceTimeMs));
    let operation = 'unknown';
    const fault = (err: AxlFault, status = 500): void => {
      record(status, operation, creds.user);
      send(res, status, 'text/xml;charset=utf-8', faultEnvelope(err, operation));
    };
    try {
      const version = requestedVersion(req, options.versions);
      if (version === undefined || !options.versions.includes(version)) {
        record(599, undefined, creds.user);
        wrongVersion(res);
        return;
      }
      const soap = readSoapRequest(await readBody(req, MAX_REQUEST_BYTES));
      operation = soap.operation;
      const nsVersion = soap.namespace.startsWith(AXL_NAMESPACE_PREFIX)
        ? soap.namespace.slice(AXL_NAMESPACE_PREFIX.length)
        : undefined;
      if (nsVersion === undefined || !options.versions.includes(nsVersion)) {
        record(599, operation, creds.user);
        wrongVersion(res);
        return;
      }
      const op = byName.get(operation.toLowerCase());
      if (!op) throw new AxlFault(5000, `Cannot find dispatch method for {${soap.namespace}}${operation}`);
      if (op.write && throttle && !throttle.tryTake()) {
        record(503, operation, creds.user);
        send(
          res,
          503,
          'text/html;charset=utf-8',
          '<html><body><h1>HTTP Status 503 - Service Unavailable</h1><p>AXL write requests are being throttled: too many outstanding change notifications. Retry later.</p></body></html>',
        );
        return;
      }
      const result = op.handle({ db: options.db, node: options.node, log: options.log }, soap.body);
      // The answer is in the schema the SOAPAction chose, whatever namespace the request used.
      const response = toXml(`ns:${op.name}Response`, {
        '@xmlns:ns': `${AXL_NAMESPACE_PREFIX}${version}`,
        '@sequence': soap.sequence,
        ...result.body,
      });
      const xml = `<?xml version='1.0' encoding='UTF-8'?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}"><soapenv:Body>${response}</soapenv:Body></soapenv:Envelope>`;
      const size = Buffer.byteLength(xml);
      if (size > options.maxResponseBytes) {
        const rows = Math.max(result.rows ?? 1, 1);
        const suggested = Math.max(1, Math.floor((rows * options.maxResponseBytes) / size));
        throw new AxlFault(
          -1,
          `Query request too large. Total rows matched: ${rows} rows. Suggested row fetch: less than ${suggested} rows`,
          'soapenv:Server',
        );
      }
      record(200, operation, creds.user);
      send(res, 200, 'text/xml;charset=utf-8', xml);
    } catch (err) {
      if (err instanceof AxlFault) fault(err);
      else if (err instanceof DbError) fault(new AxlFault(err.code, err.message));
      else if (err instanceof XmlSyntaxError || err instanceof SoapShapeError)
        fault(new AxlFault(5001, `Unable to parse the request: ${err.message}`));
      else if (err instanceof BodyTooLargeError) fault(new AxlFault(5002, 'The request is too large'), 413);
      else throw err;
    }
  };
}
