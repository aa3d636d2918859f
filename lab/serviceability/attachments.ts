// How a node's Tomcat packages SOAP answers in MIME, for the services that do: Axis2's MTOM (the
// LogCollectionPortTypeService answers as multipart/related with the envelope as an application/xop+xml
// root part, boundary MIMEBoundary_..., start <0.urn:uuid:...@apache.org>) and Axis 1's SOAP with
// Attachments (DimeGetFileService's GetOneFile: a text/xml root part and the file as a second,
// application/octet-stream part named by Content-Id, boundary "----=_Part_..."). The headers' shape is
// what the public cisco-dime client (sieteunoseis/cisco-dime, lib/multipart.js and main.js) parses from
// real nodes: the list answers split on an unquoted boundary, GetOneFile's on a quoted one with
// type="text/xml" and start="<...>". Random parts of the names are the lab's.
import { randomBytes, randomUUID } from 'node:crypto';

export interface RawAnswer {
  contentType: string;
  body: Buffer;
}

export function isRawAnswer(v: unknown): v is RawAnswer {
  return typeof v === 'object' && v !== null && Buffer.isBuffer((v as RawAnswer).body);
}

const CRLF = '\r\n';

/** A content id as Axis2 writes them: `<n>.urn:uuid:<32 hex digits>@apache.org`. */
export function axis2ContentId(n: number): string {
  return `${n}.urn:uuid:${randomUUID().toUpperCase().replace(/-/g, '')}@apache.org`;
}

/**
 * An Axis2 MTOM answer holding `envelope`, and `binary` as an optimised part when given: the envelope
 * then refers to it with `<xop:Include href="cid:<binary.id>"/>` (XOP, W3C's XML-binary Optimized
 * Packaging), as Axis2 sends a base64Binary element marked xmime:expectedContentTypes.
 */
export function mtomAnswer(envelope: string, binary?: { id: string; data: Buffer }): RawAnswer {
  const boundary = `MIMEBoundary_${randomBytes(24).toString('hex')}`;
  const start = axis2ContentId(0);
  const head = Buffer.from(
    `${CRLF}--${boundary}${CRLF}` +
      `Content-Type: application/xop+xml; charset=UTF-8; type="text/xml"${CRLF}` +
      `Content-Transfer-Encoding: binary${CRLF}` +
      `Content-ID: <${start}>${CRLF}${CRLF}` +
      `${envelope}${CRLF}--${boundary}`,
    'utf8',
  );
  const parts = binary
    ? [
        Buffer.from(
          `${CRLF}Content-Type: application/octet-stream${CRLF}` +
            `Content-Transfer-Encoding: binary${CRLF}` +
            `Content-ID: <${binary.id}>${CRLF}${CRLF}`,
          'utf8',
        ),
        binary.data,
        Buffer.from(`${CRLF}--${boundary}`, 'utf8'),
      ]
    : [];
  return {
    contentType: `multipart/related; boundary=${boundary}; type="application/xop+xml"; start="<${start}>"; start-info="text/xml"`,
    body: Buffer.concat([head, ...parts, Buffer.from(`--${CRLF}`, 'utf8')]),
  };
}

/** A content id as Axis 1 writes them: 32 upper-case hex digits. */
export function contentId(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

/**
 * An Axis 1 SOAP-with-Attachments answer: `envelope` (which refers to the attachment as
 * href="cid:<attachmentId>") and `data` as the second part.
 */
export function swaAnswer(envelope: string, attachmentId: string, data: Buffer): RawAnswer {
  const boundary = `----=_Part_${Math.floor(Math.random() * 1000)}_${Math.floor(Math.random() * 1e8)}.${Date.now()}`;
  const root = contentId();
  const head = Buffer.from(
    `${CRLF}--${boundary}${CRLF}` +
      `Content-Type: text/xml; charset=UTF-8${CRLF}` +
      `Content-Transfer-Encoding: binary${CRLF}` +
      `Content-Id: <${root}>${CRLF}${CRLF}` +
      `${envelope}${CRLF}--${boundary}${CRLF}` +
      `Content-Type: application/octet-stream${CRLF}` +
      `Content-Transfer-Encoding: binary${CRLF}` +
      `Content-Id: <${attachmentId}>${CRLF}${CRLF}`,
    'utf8',
  );
  const tail = Buffer.from(`${CRLF}--${boundary}--${CRLF}`, 'utf8');
  return {
    contentType: `multipart/related; type="text/xml"; start="<${root}>"; boundary="${boundary}"`,
    body: Buffer.concat([head, data, tail]),
  };
}
