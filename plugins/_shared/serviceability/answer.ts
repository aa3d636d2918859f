// Reading what a node answered a serviceability request: the untrusted XML parsed without entities, the
// operation's response element out of the Body, and a SOAP fault turned into a coded error with the
// node's own words (bounded: a fault string is the node's text, not ours to pass on whole).
import { ServiceabilityError } from '../../../kernel/sdk/index.ts';
import type { HttpAnswer } from '../axl/transport.ts';
import type { XmlNode } from '../node/xml-text.ts';
import { child, parseUntrusted, text } from '../node/xml-text.ts';
import type { ServiceabilityApi } from './api.ts';
import { isMultipart, MultipartError, parseMultipart } from './multipart.ts';

/** Longest fault text passed on to the caller. */
const MAX_FAULT_CHARS = 300;

/** The node refused a request with the API's rate fault; `nodeLimit` is the limit it announced. */
export class NodeRateFault extends ServiceabilityError {
  constructor(
    message: string,
    readonly nodeLimit: number | undefined,
  ) {
    super(message);
  }
}

/** A SOAP fault of the API (not its rate fault): the operation refused what it was asked. */
export class SoapFaultError extends ServiceabilityError {
  constructor(
    message: string,
    readonly faultcode: string,
    readonly faultstring: string,
  ) {
    super(message);
  }
}

/** The node's text made safe to show: control characters out, bounded. */
export function faultText(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const flat = raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > MAX_FAULT_CHARS ? `${flat.slice(0, MAX_FAULT_CHARS)}…` : flat;
}

export interface ReadOptions {
  api: ServiceabilityApi;
  operation: string;
  /** `host:port`, for messages. */
  where: string;
  /** Elements that are always arrays in this operation's answer (`item`, `Counter`...). */
  arrays: ReadonlySet<string>;
}

/**
 * The operation's response element (`<operation>Response`, any prefix), or a coded error: authentication
 * refused, the API's rate fault (NodeRateFault), another fault (SoapFaultError), or an answer that is
 * not this API's.
 */
export function readAnswer(answer: HttpAnswer, o: ReadOptions): XmlNode {
  const { api, operation, where } = o;
  if (answer.status === 401 || answer.status === 403)
    throw new ServiceabilityError(
      `authentication to ${api.name} on ${where} failed (HTTP ${answer.status}): check the stored credential and that its user has the serviceability roles (Standard RealtimeAndTraceCollection, Standard CCM Admin Users)`,
    );
  if (answer.status === 404)
    throw new ServiceabilityError(`${where} does not serve ${api.name} at ${api.path} (HTTP 404)`);
  const type = String(answer.headers['content-type'] ?? '');
  const envelope = soapPart(answer, type, o);
  const doc = parseUntrusted(envelope.toString('utf8'), `${api.name}'s answer to ${operation}`, {
    arrays: o.arrays,
    fail: (message, cause) => new ServiceabilityError(message, cause === undefined ? {} : { cause }),
  });
  const body = child(child(doc, 'Envelope'), 'Body');
  if (!body)
    throw new ServiceabilityError(`${api.name} on ${where} answered ${operation} without a SOAP Body`);
  const fault = child(body, 'Fault');
  if (fault) {
    const faultcode = faultText(text(fault, 'faultcode') ?? '');
    const faultstring = faultText(text(fault, 'faultstring') ?? '');
    const announced = api.rateFault?.(faultstring);
    if (announced !== undefined)
      throw new NodeRateFault(
        `${api.name} on ${where} refused ${operation} with its rate fault: ${faultstring}`,
        announced ?? undefined,
      );
    throw new SoapFaultError(
      `${api.name} on ${where} answered ${operation} with a fault: ${faultstring || faultcode || 'no fault string'}`,
      faultcode,
      faultstring,
    );
  }
  if (answer.status !== 200)
    throw new ServiceabilityError(`${api.name} on ${where} answered ${operation} with HTTP ${answer.status}`);
  const response = child(body, `${operation}Response`);
  if (!response)
    throw new ServiceabilityError(
      `${api.name} on ${where} answered ${operation} without its ${operation}Response element`,
    );
  return response;
}

/**
 * The SOAP envelope of an answer: the body of a text/xml answer, or the root part of a MIME
 * multipart/related one (Axis2's MTOM, Axis 1's SOAP with Attachments: multipart.ts), which must be XML.
 */
export function soapPart(answer: HttpAnswer, type: string, o: ReadOptions): Buffer {
  const { api, where, operation } = o;
  const notSoap = (what: string): ServiceabilityError =>
    new ServiceabilityError(`${api.name} on ${where} answered HTTP ${answer.status} with ${what}, not SOAP`);
  if (isMultipart(type)) {
    let root;
    try {
      root = parseMultipart(answer.body, type).root;
    } catch (err) {
      if (!(err instanceof MultipartError)) throw err;
      throw new ServiceabilityError(
        `${api.name} on ${where} answered ${operation} with a broken MIME answer: ${err.message}`,
      );
    }
    const rootType = root.headers['content-type'] ?? '';
    if (!/xml/i.test(rootType))
      throw notSoap(`a MIME root part of ${rootType === '' ? 'no type' : faultText(rootType)}`);
    return root.body;
  }
  if (!/xml/i.test(type)) throw notSoap(type === '' ? 'no content type' : faultText(type));
  return answer.body;
}
