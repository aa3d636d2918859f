// A phone's /CGI/Screenshot answer, whatever its format, as the PNG the tool returns.
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import { decodeBmp } from './bmp.ts';
import { decodeCiscoImageXml } from './cisco-image-xml.ts';
import { detectImageFormat, hexPrefix, type DetectedFormat } from './image-format.ts';
import { encodePng, validatePng } from './png.ts';

export type SourceFormat = 'png' | 'bmp' | 'cisco-xml';

export interface ScreenshotPng {
  png: Buffer;
  width: number;
  height: number;
  sourceFormat: SourceFormat;
}

const REFUSED: Partial<Record<DetectedFormat, string>> = {
  html: 'an HTML page (web access may be disabled or the address may not be a phone)',
  jpeg: 'a JPEG image, which no phone model is known to send',
  gif: 'a GIF image, which no phone model is known to send',
  webp: 'a WebP image, which no phone model is known to send',
  tiff: 'a TIFF image, which no phone model is known to send',
  empty: 'an empty body',
};

/** Detects the format from the bytes, decodes or validates, and gives back a PNG. */
export function screenshotToPng(bytes: Buffer): ScreenshotPng {
  const format = detectImageFormat(bytes);
  switch (format) {
    case 'png':
      return { png: bytes, ...validatePng(bytes), sourceFormat: 'png' };
    case 'bmp': {
      const image = decodeBmp(bytes);
      return { png: encodePng(image), width: image.width, height: image.height, sourceFormat: 'bmp' };
    }
    case 'xml': {
      const image = decodeCiscoImageXml(bytes);
      return { png: encodePng(image), width: image.width, height: image.height, sourceFormat: 'cisco-xml' };
    }
    default: {
      const what = REFUSED[format] ?? 'bytes in no known image format';
      const shown = format === 'empty' ? '' : ` (first bytes: ${hexPrefix(bytes)})`;
      throw new BadRequestError(
        `the phone answered ${what} instead of a PNG, BMP or CiscoIPPhoneImage screenshot${shown}`,
      );
    }
  }
}
