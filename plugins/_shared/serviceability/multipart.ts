// MIME multipart/related answers of the serviceability services, read as untrusted input: Axis2's MTOM
// (the Log Collection answers: the envelope as an application/xop+xml root part) and Axis 1's SOAP with
// Attachments (DimeGetFileService's GetOneFile: the envelope, then the file as a part named by its
// Content-Id). The answer is already bounded in size by the transport; here every count and length is
// bounded too: the boundary's form (RFC 2046: 1-70 characters of its alphabet), the number of parts, a
// part's header block, a declared Content-Length that must be the part's real length (a length that lies
// is refused, never trusted to slice), and the closing delimiter (an answer cut short is refused rather
// than handed over as if whole). Searching is Buffer.indexOf over the bytes: linear, no backtracking.

/** Why an answer was refused; the caller turns it into its coded error. */
export class MultipartError extends Error {}

export interface MimePart {
  /** Header names lower-cased; values as sent (bounded by the header block's size). */
  headers: Record<string, string>;
  body: Buffer;
  /** Content-Id without its angle brackets, or undefined. */
  id?: string;
}

export interface MultipartAnswer {
  parts: MimePart[];
  /** The part `start` names, else the first. */
  root: MimePart;
}

export interface MultipartLimits {
  /** Most parts read; default 8 (an envelope and its one attachment is what these services send). */
  maxParts?: number;
  /** Largest header block of one part; default 8 KiB. */
  maxHeaderBytes?: number;
}

const BCHARS = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** A parameter of a header value (`boundary=x`, `start="<id>"`); case-insensitive name. */
export function headerParam(value: string, name: string): string | undefined {
  const re = /;\s*([A-Za-z0-9_-]{1,40})\s*=\s*("((?:[^"\\]|\\.){0,500})"|[^;\s]{0,500})/g;
  for (const m of value.matchAll(re)) {
    if (m[1]?.toLowerCase() !== name.toLowerCase()) continue;
    return m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[2];
  }
  return undefined;
}

export function isMultipart(contentType: string): boolean {
  return /^\s*multipart\/related\s*(;|$)/i.test(contentType);
}

const stripId = (v: string): string => v.trim().replace(/^<(.*)>$/, '$1');

function readHeaders(block: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  // Folded header lines (a continuation starting with white space) are joined first.
  const text = block.toString('latin1').replace(/\r\n[ \t]+/g, ' ');
  for (const line of text.split('\r\n')) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`a part carries a malformed header line`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The parts of a multipart/related answer; MultipartError when it is not one as described above. */
export function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits = {},
): MultipartAnswer {
  const maxParts = limits.maxParts ?? 8;
  const maxHeader = limits.maxHeaderBytes ?? 8 * 1024;
  const boundary = headerParam(contentType, 'boundary');
  if (boundary === undefined || !BCHARS.test(boundary))
    throw new MultipartError('the multipart answer has no valid boundary');
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const between = Buffer.from(`\r\n--${boundary}`, 'latin1');
  // The first delimiter may open the body or follow a preamble (Axis2 starts with a CRLF).
  const opening = body.subarray(0, delimiter.length).equals(delimiter) ? -2 : body.indexOf(between);
  if (opening === -1) throw new MultipartError('the multipart answer has no part');
  let at = opening + 2;
  const parts: MimePart[] = [];
  for (;;) {
    const after = at + delimiter.length;
    if (body.subarray(after, after + 2).toString('latin1') === '--') break;
    if (parts.length >= maxParts)
      throw new MultipartError(`the multipart answer has more than ${maxParts} parts`);
    // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
    let lineEnd = after;
    while (lineEnd < body.length && (body[lineEnd] === 0x20 || body[lineEnd] === 0x09)) lineEnd++;
    if (body.subarray(lineEnd, lineEnd + 2).toString('latin1') !== '\r\n')
      throw new MultipartError('the multipart answer ends inside a delimiter line (cut short)');
    const headStart = lineEnd + 2;
    const headEnd = body.indexOf('\r\n\r\n', headStart, 'latin1');
    const blankFirst = body.subarray(headStart, headStart + 2).toString('latin1') === '\r\n';
    const bodyStart = blankFirst ? headStart + 2 : headEnd + 4;
    if (!blankFirst && (headEnd < 0 || headEnd - headStart > maxHeader))
      throw new MultipartError(
        headEnd < 0
          ? 'the multipart answer ends inside a part header (cut short)'
          : `a part header is longer than ${maxHeader} bytes`,
      );
    const headers = blankFirst ? {} : readHeaders(body.subarray(headStart, headEnd));
    const next = body.indexOf(between, bodyStart);
    if (next < 0) throw new MultipartError('the multipart answer has no closing delimiter (cut short)');
    const content = body.subarray(bodyStart, next);
    const declared = headers['content-length'];
    if (declared !== undefined && (!/^\d{1,15}$/.test(declared) || Number(declared) !== content.length))
      throw new MultipartError(
        `a part declares Content-Length ${declared.slice(0, 20)} but carries ${content.length} bytes`,
      );
    const id = headers['content-id'];
    parts.push({ headers, body: content, ...(id !== undefined ? { id: stripId(id) } : {}) });
    at = next + 2;
  }
  const first = parts[0];
  if (!first) throw new MultipartError('the multipart answer has no part');
  const start = headerParam(contentType, 'start');
  const root = start === undefined ? first : parts.find((p) => p.id === stripId(start));
  if (!root) throw new MultipartError('the multipart answer has no part named by its start parameter');
  return { parts, root };
}

/** The part `href` (cid:...) names, or undefined. */
export function partByReference(answer: MultipartAnswer, href: string): MimePart | undefined {
  let id: string;
  try {
    id = decodeURIComponent(href.replace(/^cid:/i, ''));
  } catch {
    // A malformed escape names no part.
    return undefined;
  }
  return answer.parts.find((p) => p.id === id);
}
