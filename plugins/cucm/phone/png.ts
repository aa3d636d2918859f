// PNG in and out: a phone's own PNG is checked (dimensions first, then a full decode) and passed on
// unchanged; every other format is encoded from RGBA.
import { createRequire } from 'node:module';
import type { PNG as PngClass } from 'pngjs';
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import { checkDimensions, type RgbaImage } from './raster.ts';

const require = createRequire(import.meta.url);
let pngLibrary: typeof PngClass | undefined;

/** pngjs, loaded by the first screenshot: the server's startup never needs it. */
function pngjs(): typeof PngClass {
  return (pngLibrary ??= (require('pngjs') as { PNG: typeof PngClass }).PNG);
}

/** Signature (8) + IHDR length and type (8) + width and height (8). */
const IHDR_END = 24;

/**
 * Checks that `buf` is a PNG that decodes, and returns its size. The IHDR dimensions are checked
 * before pngjs decodes: it allocates the declared raster, so a forged header must not reach it.
 */
export function validatePng(buf: Buffer): { width: number; height: number } {
  if (buf.length < IHDR_END || buf.toString('latin1', 12, 16) !== 'IHDR')
    throw new BadRequestError('the PNG screenshot is truncated or does not start with its IHDR header');
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  checkDimensions(width, height, 'PNG screenshot');
  const PNG = pngjs();
  let decoded: PngClass;
  try {
    decoded = PNG.sync.read(buf);
  } catch (err) {
    throw new BadRequestError(
      `the PNG screenshot does not decode (${(err as Error).message.slice(0, 120)})`,
      {
        cause: err,
      },
    );
  }
  return { width: decoded.width, height: decoded.height };
}

export function encodePng(image: RgbaImage): Buffer {
  const PNG = pngjs();
  const png = new PNG({ width: image.width, height: image.height });
  image.data.copy(png.data);
  return PNG.sync.write(png);
}
