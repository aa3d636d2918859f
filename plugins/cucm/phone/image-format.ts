// What a phone's /CGI/Screenshot answer really is, told from its first bytes. The Content-Type header
// is not consulted: phones (and anything answering in their place) label bodies inconsistently.

/** Formats the screenshot tool converts, and the ones it recognises only to refuse them by name. */
export type DetectedFormat =
  'png' | 'bmp' | 'xml' | 'html' | 'jpeg' | 'gif' | 'webp' | 'tiff' | 'empty' | 'unknown';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** File header (14) plus the smallest DIB header's size field: less cannot be a bitmap. */
const BMP_MIN_BYTES = 18;

function startsWith(bytes: Buffer, prefix: readonly number[] | Buffer): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** The first characters of a text body after a UTF-8 byte-order mark and white space, lower-cased. */
function textStart(bytes: Buffer, length: number): string {
  let i = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)
  )
    i++;
  return bytes
    .subarray(i, i + length)
    .toString('latin1')
    .toLowerCase();
}

export function detectImageFormat(bytes: Buffer): DetectedFormat {
  if (bytes.length === 0) return 'empty';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (bytes.length >= BMP_MIN_BYTES && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (head.startsWith('RIFF') && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return 'tiff';
  const text = textStart(bytes, 64);
  // An error page is HTML; check it before XML, since XHTML also starts with '<?xml'.
  if (
    /^<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/.test(text) ||
    /<html[\s>]/.test(textStart(bytes, 512))
  )
    return 'html';
  if (text.startsWith('<')) return 'xml';
  return 'unknown';
}

/** The first bytes in hex, for an error message that shows what came back without echoing it all. */
export function hexPrefix(bytes: Buffer, count = 16): string {
  const shown = bytes
    .subarray(0, count)
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ');
  return bytes.length > count ? `${shown} ...` : shown;
}
