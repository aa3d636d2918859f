// DimeGetFileService's GetOneFile as this client calls it: FileName, the absolute path selectLogFiles
// gave, and the file taken from the answer's attachment. Names: the path
// /logcollectionservice/services/DimeGetFileService, the operation element in
// http://schemas.cisco.com/ast/soap/ and FileName, as the public cisco-dime client
// (sieteunoseis/cisco-dime, lib/DimeGetFileService.js) sends them to real nodes (developer.cisco.com's
// Log Collection overview names the DimeGetFile service and its one-file download; no Cisco page read
// here gives its path). The answer, on 12.x to 15 as that client parses it: MIME multipart/related, the
// envelope first, its GetOneFileReturn naming the file's part by href="cid:..." (Axis 1 SOAP with
// Attachments), the file the part's bytes. Despite the name, a DIME (application/dime) answer is
// refused as not SOAP: no node of these releases was seen sending one. The answer is bounded by the
// call's size cap before anything is read; multipart.ts reads it as untrusted.
import { PayloadTooLargeError, ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import type { HttpAnswer } from '../../axl/transport.ts';
import type { XmlNode } from '../../node/xml-text.ts';
import { child, isNode, parseUntrusted } from '../../node/xml-text.ts';
import { exceededAllowedRate, type ServiceabilityApi } from '../api.ts';
import type { SoapCall } from '../client.ts';
import { isMultipart, MultipartError, parseMultipart, partByReference } from '../multipart.ts';

/**
 * The node's budget for file downloads. No Cisco document read here gives one: the Log Collection
 * figure is assumed (each download is a whole file read on the node), with the same rate fault.
 */
export const GET_FILE_API: ServiceabilityApi = {
  name: 'DimeGetFileService',
  path: '/logcollectionservice/services/DimeGetFileService',
  namespace: 'http://schemas.cisco.com/ast/soap/',
  perMinute: 15,
  rateFault: exceededAllowedRate,
};

/** Room for the envelope and MIME headers around the file, within the answer cap. */
export const ENVELOPE_ROOM = 64 * 1024;

/**
 * The file at `path` on the node, at most `maxBytes` long (a bigger answer is refused by the client
 * before it is read whole).
 */
export async function getOneFile(
  call: (c: SoapCall) => Promise<XmlNode>,
  path: string,
  maxBytes: number,
  where: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  let raw: HttpAnswer | undefined;
  const response = await call({
    api: GET_FILE_API,
    operation: 'GetOneFile',
    fields: { FileName: path },
    maxAnswerBytes: maxBytes + ENVELOPE_ROOM,
    onAnswer: (a) => {
      raw = a;
    },
    ...(signal ? { signal } : {}),
  });
  if (!isNode(response)) throw new ServiceabilityError(`DimeGetFileService on ${where} answered nothing`);
  const type = String(raw?.headers['content-type'] ?? '');
  if (!raw || !isMultipart(type))
    throw new ServiceabilityError(`DimeGetFileService on ${where} answered GetOneFile without an attachment`);
  let parts;
  try {
    parts = parseMultipart(raw.body, type);
  } catch (err) {
    if (err instanceof MultipartError)
      throw new ServiceabilityError(
        `DimeGetFileService on ${where} sent a broken attachment: ${err.message}`,
      );
    throw err;
  }
  // The answer was read without attributes; the reference is one: the envelope is read again for it.
  const envelope = parseUntrusted(parts.root.body.toString('utf8'), `DimeGetFileService's answer`, {
    arrays: new Set(),
    attributes: true,
    fail: (message, cause) => new ServiceabilityError(message, cause === undefined ? {} : { cause }),
  });
  const ret = child(
    child(child(child(envelope, 'Envelope'), 'Body'), 'GetOneFileResponse'),
    'GetOneFileReturn',
  );
  const href = ret && typeof ret['@href'] === 'string' ? ret['@href'] : undefined;
  // The envelope names its part; an answer without the reference has one other part only.
  const others = parts.parts.filter((p) => p !== parts.root);
  const part =
    href !== undefined ? partByReference(parts, href) : others.length === 1 ? others[0] : undefined;
  if (!part)
    throw new ServiceabilityError(
      `DimeGetFileService on ${where} answered GetOneFile without the file's part${href !== undefined ? ` (${href.slice(0, 80)} names none)` : ''}`,
    );
  if (part.body.length > maxBytes)
    throw new PayloadTooLargeError(
      `${path} is ${part.body.length} bytes, more than max_file_bytes (${maxBytes}); not kept`,
    );
  return Buffer.from(part.body);
}
