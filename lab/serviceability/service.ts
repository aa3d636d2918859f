// A serviceability SOAP service as a VOS node's Tomcat serves it (PerfmonService, ControlCenterServices,
// LogCollectionPortService...): one definition per service, mounted on every VOS node's HTTPS listener
// by mount.ts. The endpoint does what all of them do alike: the WSDL on ?wsdl, Basic authentication,
// POST only, the SOAP envelope read (SOAPAction checked against the body), the per-node rate limit with
// the service's own AxisFault, and any operation's failure as a SOAP fault.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { XmlObject } from '../xml/parse.ts';
import { XmlSyntaxError } from '../xml/parse.ts';
import type { XmlOutObject } from '../xml/write.ts';
import { qualify, toXml } from '../xml/write.ts';
import {
  BodyTooLargeError,
  basicCredentials,
  readBody,
  requestPath,
  send,
  sendUnauthorized,
} from '../http/request.ts';
import { readSoapRequest, SoapShapeError } from '../cucm/axl/envelope.ts';
import { plainFaultEnvelope, SOAP_ENV } from '../cucm/axl/fault.ts';
import type { LabLog, RequestRecord } from '../state/log.ts';
import { SlidingWindow } from '../state/sliding-window.ts';
import type { RawAnswer } from './attachments.ts';
import { isRawAnswer } from './attachments.ts';

/** What an operation handler is told about the call. */
export interface SoapCall {
  /** The node that answers (its name, as `show network cluster` lists it). */
  node: string;
  /** The authenticated user. */
  user: string;
  /** The operation element's content, prefixes removed. */
  body: XmlObject;
}

/** Thrown by an operation: answered as a SOAP fault (HTTP 500) with this code and text. */
export class SoapFault extends Error {
  constructor(
    readonly faultstring: string,
    readonly faultcode = 'soapenv:Server',
  ) {
    super(faultstring);
  }
}

/**
 * An operation: its answer's content (qualified and wrapped in `<operation>Response` by the endpoint),
 * a whole SOAP envelope as text when the service writes its own, or a whole answer with its content
 * type when the service packages it in MIME (attachments.ts: MTOM, SOAP with Attachments).
 */
export type SoapOperation = (
  call: SoapCall,
) => XmlOutObject | string | RawAnswer | Promise<XmlOutObject | string | RawAnswer>;

export interface SoapServiceDef {
  /** `PerfmonService`: the name the WSDL's <wsdl:service> carries and the lab log records. */
  name: string;
  /** `/perfmonservice2/services/PerfmonService`. */
  path: string;
  /** The namespace of its elements (the answers are qualified in it). */
  namespace: string;
  /** The service's WSDL, with `location` as its soap:address. */
  wsdl: (location: string) => string;
  operations: Record<string, SoapOperation>;
  /** Requests per minute the node accepts for this service (all clients together); undefined: no limit. */
  perMinute?: () => number;
  /** The fault text of the rate limit (the real node's AxisFault wording for this service). */
  rateFault?: (limit: number) => string;
  /** Largest request body; default 1 MiB. */
  maxRequestBytes?: number;
  /** The window counting requests, when the node's state keeps it (RisPort70's, reset by tests). */
  window?: SlidingWindow;
  /** The Basic realm of the 401; default `Cisco Serviceability`. */
  realm?: string;
  /**
   * How the lab log records its requests; default service `serviceability` and operations qualified
   * `<name>.<operation>`. RisPort70 keeps the `ris` records its readers have always seen.
   */
  logAs?: { service: RequestRecord['service']; qualified: boolean };
  /** Dispatch on the body whatever the SOAPAction names, as RisPort70 always has; default checked. */
  anySoapAction?: boolean;
  /**
   * Bare operations: the Body element that names each (`FileName` is GetOneFile's request). The
   * handler is given `{ <element>: <its text> }` as its body.
   */
  bareRequests?: Record<string, string>;
}

export interface NodeSoapOptions {
  node: string;
  log: LabLog;
  /** Whether this login may use the node's serviceability services (the product decides how). */
  authenticate: (user: string, password: string) => boolean;
  publicAddress: () => string;
}

/** The HTTP handler of one service on one node. */
export function soapServiceEndpoint(
  def: SoapServiceDef,
  o: NodeSoapOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  // One window per node and service: each node counts its own requests (shared by every client).
  const window = def.window ?? (def.perMinute ? new SlidingWindow(def.perMinute, 60_000) : undefined);
  const logAs = def.logAs ?? { service: 'serviceability', qualified: true };
  return async (req, res) => {
    const { query } = requestPath(req);
    const record = (status: number, operation?: string, user?: string): void =>
      o.log.request({
        node: o.node,
        service: logAs.service,
        method: req.method ?? '',
        path: def.path,
        status,
        ...(operation ? { operation: logAs.qualified ? `${def.name}.${operation}` : operation } : {}),
        ...(user ? { user } : {}),
      });
    if (req.method === 'GET' && [...query.keys()].some((k) => k.toLowerCase() === 'wsdl')) {
      record(200, 'wsdl');
      send(res, 200, 'text/xml;charset=utf-8', def.wsdl(`https://${o.publicAddress()}${def.path}`));
      return;
    }
    const creds = basicCredentials(req);
    if (!creds || !o.authenticate(creds.user, creds.password)) {
      record(401);
      sendUnauthorized(res, def.realm ?? 'Cisco Serviceability');
      return;
    }
    if (req.method !== 'POST') {
      record(405, undefined, creds.user);
      send(res, 405, 'text/plain', 'Method Not Allowed');
      return;
    }
    const fault = (operation: string, code: string, text: string): void => {
      record(500, operation, creds.user);
      send(res, 500, 'text/xml;charset=utf-8', plainFaultEnvelope(code, text));
    };
    let operation = 'unknown';
    try {
      const soap = readSoapRequest(await readBody(req, def.maxRequestBytes ?? 1024 * 1024));
      const bare = def.bareRequests && Object.hasOwn(def.bareRequests, soap.operation);
      const body = bare ? { [soap.operation]: soap.text ?? '' } : soap.body;
      operation = bare ? (def.bareRequests?.[soap.operation] ?? soap.operation) : soap.operation;
      const run = Object.hasOwn(def.operations, operation) ? def.operations[operation] : undefined;
      if (!run || soap.namespace !== def.namespace) {
        fault(operation, 'soapenv:Client', `No such operation '${operation}'`);
        return;
      }
      // Axis dispatches on the body; a SOAPAction naming another operation is the client's error.
      const action = String(req.headers.soapaction ?? '').replace(/^"|"$/g, '');
      if (!def.anySoapAction && action !== '' && action !== operation && !action.endsWith(`/${operation}`)) {
        fault(
          operation,
          'soapenv:Client',
          `SOAPAction '${action}' does not match the operation '${operation}'`,
        );
        return;
      }
      if (window && !window.tryTake()) {
        const limit = def.perMinute?.() ?? 0;
        fault(
          operation,
          'soapenv:Server.generalException',
          def.rateFault?.(limit) ?? `Exceeded allowed rate for ${def.name}: ${limit} requests per minute.`,
        );
        return;
      }
      // An operation may wait (CDRonDemand get_file pushes a file before it answers).
      const content = await run({ node: o.node, user: creds.user, body });
      record(200, operation, creds.user);
      if (isRawAnswer(content)) {
        send(res, 200, content.contentType, content.body);
        return;
      }
      const xml = typeof content === 'string' ? content : answerEnvelope(def.namespace, operation, content);
      send(res, 200, 'text/xml;charset=utf-8', xml);
    } catch (err) {
      if (err instanceof SoapFault) fault(operation, err.faultcode, err.faultstring);
      else if (
        err instanceof XmlSyntaxError ||
        err instanceof SoapShapeError ||
        err instanceof BodyTooLargeError
      )
        fault(operation, 'soapenv:Client', err.message);
      else throw err;
    }
  };
}

/** `<ns1:operationResponse>` with `content` qualified in the service's namespace. */
export function answerEnvelope(namespace: string, operation: string, content: XmlOutObject): string {
  const response = toXml(`ns1:${operation}Response`, {
    '@xmlns:ns1': namespace,
    ...(qualify(content, 'ns1') as XmlOutObject),
  });
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${SOAP_ENV}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soapenv:Body>${response}</soapenv:Body></soapenv:Envelope>`;
}
