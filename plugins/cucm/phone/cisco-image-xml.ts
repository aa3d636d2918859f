// Old phone firmware answers /CGI/Screenshot with a CiscoIPPhoneImage XML object instead of a bitmap:
// Width, Height, Depth and a hex string of packed 2-bit grayscale pixels. Cisco's IP Phone Services
// Application Development Notes fix the packing: four pixels a byte, the leftmost pixel in the least
// significant bits, rows not padded (only the end of the stream is), 0 the blank background and 3 the
// darkest. Only that object is decoded; the other CiscoIPPhone objects a phone can answer are refused
// by name. The text is scanned with linear patterns, never handed to an entity-expanding XML parser.
import { BadRequestError, CredentialError } from '../../../kernel/sdk/index.ts';
import { allocRaster, checkDimensions, type RgbaImage } from './raster.ts';

/** CiscoIPPhoneError numbers (Development Notes, CiscoIPPhoneError): 4 is "Authentication error". */
const PHONE_ERROR_AUTHENTICATION = '4';

/** The name of the document's root element, after any XML declaration, comments and DOCTYPE. */
export function rootElementName(text: string): string | undefined {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return undefined;
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      const end = text.indexOf('>', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
    } else break;
  }
  return /^<([A-Za-z_][\w.:-]{0,63})/.exec(text.slice(i, i + 66))?.[1];
}

/** Text of the first `<name>` element (no nested markup), '' when self-closed, undefined when absent. */
function childText(text: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^<>]*)?(/>|>([^<]*)</${name}\\s*>)`).exec(text);
  if (!m) return undefined;
  return m[1] === '/>' ? '' : (m[2] ?? '');
}

function dimension(text: string, name: string): number {
  const raw = childText(text, name)?.trim();
  if (raw === undefined) throw new BadRequestError(`the CiscoIPPhoneImage screenshot has no <${name}>`);
  if (!/^\d{1,9}$/.test(raw))
    throw new BadRequestError(
      `the CiscoIPPhoneImage screenshot has a non-numeric <${name}> (${raw.slice(0, 20)})`,
    );
  return Number(raw);
}

/** Decodes a CiscoIPPhoneImage screenshot; any other CiscoIPPhone object is refused with a coded error. */
export function decodeCiscoImageXml(buf: Buffer): RgbaImage {
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  const root = rootElementName(text);
  if (root === 'CiscoIPPhoneError') {
    const number = /<CiscoIPPhoneError\s[^<>]*Number\s*=\s*["']?(\d{1,4})/.exec(text)?.[1];
    if (number === PHONE_ERROR_AUTHENTICATION)
      throw new CredentialError(
        'the phone refused the credentials (CiscoIPPhoneError 4): the user must control the device and web access must be enabled',
      );
    throw new BadRequestError(
      `the phone answered CiscoIPPhoneError ${number ?? '(no number)'} instead of a screenshot`,
    );
  }
  if (root === 'CiscoIPPhoneImageFile')
    throw new BadRequestError(
      'the phone answered a CiscoIPPhoneImageFile, which only points to an image by URL; it is not fetched',
    );
  if (root !== 'CiscoIPPhoneImage')
    throw new BadRequestError(
      root === undefined
        ? 'the phone answered text that is not a well-formed XML document'
        : `the phone answered an XML <${root}> object, not a screenshot`,
    );

  const width = dimension(text, 'Width');
  const height = dimension(text, 'Height');
  const depth = dimension(text, 'Depth');
  if (depth !== 2)
    throw new BadRequestError(
      `the CiscoIPPhoneImage screenshot has Depth ${depth}; only 2-bit grayscale is supported`,
    );
  checkDimensions(width, height, 'CiscoIPPhoneImage screenshot');

  const hex = (childText(text, 'Data') ?? '').replace(/\s+/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(hex) || hex.length % 2 !== 0)
    throw new BadRequestError(
      'the CiscoIPPhoneImage screenshot has <Data> that is not a string of hex byte pairs',
    );
  const needed = Math.ceil((width * height) / 4);
  if (hex.length / 2 < needed)
    throw new BadRequestError(
      `the CiscoIPPhoneImage screenshot is truncated: ${width}x${height} at 2 bits needs ${needed} bytes, <Data> has ${hex.length / 2}`,
    );
  // Padding past the last pixel is allowed by the format and ignored, as the phone itself does.
  const packed = Buffer.from(hex.slice(0, needed * 2), 'hex');

  const out = allocRaster(width, height, 'CiscoIPPhoneImage screenshot');
  for (let i = 0; i < width * height; i++) {
    const value = ((packed[i >> 2] as number) >> ((i & 3) * 2)) & 3;
    const gray = 255 - value * 85;
    out.data[i * 4] = gray;
    out.data[i * 4 + 1] = gray;
    out.data[i * 4 + 2] = gray;
  }
  return out;
}
