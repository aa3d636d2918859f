// A Windows bitmap decoder for the screenshots of older phones (79xx answer 24-bit BMP). It reads the
// uncompressed forms a phone or an image library can write and refuses everything else by name, checking
// every size against the buffer before reading so that a forged header fails instead of over-reading.
import { BadRequestError } from '../../../kernel/sdk/index.ts';
import { allocRaster, checkDimensions, type RgbaImage } from './raster.ts';

const FILE_HEADER = 14;
/** DIB header sizes: BITMAPINFOHEADER, its V2/V3 extensions (RGB / RGBA masks), V4 and V5. */
const INFO_HEADERS = new Set([40, 52, 56, 108, 124]);
const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;
const COMPRESSION_NAMES: Record<number, string> = {
  1: 'RLE8',
  2: 'RLE4',
  4: 'JPEG',
  5: 'PNG',
  11: 'CMYK',
  12: 'CMYK RLE8',
  13: 'CMYK RLE4',
};

/** One channel of a packed pixel: where its bits are and how to widen them to 8 bits. */
interface Channel {
  shift: number;
  max: number;
}

interface Masks {
  r: Channel;
  g: Channel;
  b: Channel;
  /** Undefined: the format carries no alpha, every pixel is opaque. */
  a: Channel | undefined;
}

function bad(message: string): BadRequestError {
  return new BadRequestError(`the BMP screenshot ${message}`);
}

/** A contiguous, non-empty bit mask within the pixel's width, as `shift` and the channel's maximum. */
function channel(mask: number, bpp: number, name: string): Channel {
  const m = mask >>> 0;
  if (m === 0) throw bad(`has an empty ${name} bit mask`);
  if (bpp < 32 && m >= 2 ** bpp)
    throw bad(`has a ${name} bit mask 0x${m.toString(16)} wider than ${bpp} bits`);
  let shift = 0;
  while (((m >>> shift) & 1) === 0) shift++;
  const run = m / 2 ** shift;
  // A contiguous run of ones is 2^k - 1.
  if (!Number.isInteger(Math.log2(run + 1)))
    throw bad(`has a non-contiguous ${name} bit mask 0x${m.toString(16)}`);
  return { shift, max: run };
}

function widen(pixel: number, c: Channel): number {
  const v = Math.floor(pixel / 2 ** c.shift) % (c.max + 1);
  return c.max === 255 ? v : Math.round((v * 255) / c.max);
}

/** Decodes a BMP file into RGBA, top row first. */
export function decodeBmp(buf: Buffer): RgbaImage {
  if (buf.length < FILE_HEADER + 4 || buf[0] !== 0x42 || buf[1] !== 0x4d) throw bad('has no BMP file header');
  const pixelOffset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  if (headerSize === 12) throw bad('uses the OS/2 BITMAPCOREHEADER, which is not supported');
  if (!INFO_HEADERS.has(headerSize)) throw bad(`has an unknown DIB header of ${headerSize} bytes`);
  if (buf.length < FILE_HEADER + headerSize) throw bad('is truncated inside its header');

  const width = buf.readInt32LE(18);
  const rawHeight = buf.readInt32LE(22);
  const planes = buf.readUInt16LE(26);
  const bpp = buf.readUInt16LE(28);
  const compression = buf.readUInt32LE(30);
  const colorsUsed = buf.readUInt32LE(46);

  const named = COMPRESSION_NAMES[compression];
  if (named !== undefined) throw bad(`is ${named}-compressed, which is not supported`);
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS)
    throw bad(`uses unknown compression ${compression}`);
  if (planes !== 1) throw bad(`declares ${planes} colour planes (must be 1)`);
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw bad(`has an unsupported depth of ${bpp} bits per pixel`);
  if (compression !== BI_RGB && bpp !== 16 && bpp !== 32)
    throw bad(`uses bit-field masks with ${bpp} bits per pixel (only 16 and 32 may)`);

  // A negative height means rows are stored top-down; the magnitude is the height either way.
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  checkDimensions(width, height, 'BMP screenshot');

  // Masks live in the V2+ header itself, or right after a 40-byte header when the compression says so.
  // The palette follows the header; bit masks after a 40-byte header only occur at 16 and 32 bits,
  // which have no palette to read, so they never shift it.
  const tableStart = FILE_HEADER + headerSize;
  let masks: Masks | undefined;
  if (compression !== BI_RGB) {
    const maskAt = FILE_HEADER + 40;
    const count = headerSize >= 56 || (headerSize === 40 && compression === BI_ALPHABITFIELDS) ? 4 : 3;
    if (buf.length < maskAt + count * 4) throw bad('is truncated inside its bit masks');
    const alphaMask = count === 4 ? buf.readUInt32LE(maskAt + 12) : 0;
    masks = {
      r: channel(buf.readUInt32LE(maskAt), bpp, 'red'),
      g: channel(buf.readUInt32LE(maskAt + 4), bpp, 'green'),
      b: channel(buf.readUInt32LE(maskAt + 8), bpp, 'blue'),
      a: alphaMask === 0 ? undefined : channel(alphaMask, bpp, 'alpha'),
    };
  } else if (bpp === 16) {
    // Uncompressed 16-bit is X1R5G5B5 by definition.
    masks = { r: { shift: 10, max: 31 }, g: { shift: 5, max: 31 }, b: { shift: 0, max: 31 }, a: undefined };
  }

  let palette: Buffer | undefined;
  if (bpp <= 8) {
    // biClrUsed 0 means the full 2^bpp table; a larger count cannot be indexed, so it is not read either.
    const maxColors = 2 ** bpp;
    const colors = colorsUsed === 0 ? maxColors : Math.min(colorsUsed, maxColors);
    if (buf.length < tableStart + colors * 4) throw bad('is truncated inside its palette');
    palette = buf.subarray(tableStart, tableStart + colors * 4);
  }

  // Rows are padded to whole 32-bit words.
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  if (pixelOffset < FILE_HEADER + headerSize || pixelOffset > buf.length)
    throw bad(`has a pixel offset ${pixelOffset} outside the file`);
  const needed = stride * height;
  if (buf.length - pixelOffset < needed)
    throw bad(
      `is truncated: ${width}x${height} at ${bpp} bits needs ${needed} bytes of pixels, the file has ${buf.length - pixelOffset}`,
    );

  const out = allocRaster(width, height, 'BMP screenshot');
  const px = out.data;
  for (let y = 0; y < height; y++) {
    const row = pixelOffset + (topDown ? y : height - 1 - y) * stride;
    let o = y * width * 4;
    for (let x = 0; x < width; x++, o += 4) {
      if (palette) {
        let index: number;
        if (bpp === 8) index = buf[row + x] as number;
        else if (bpp === 4) index = ((buf[row + (x >> 1)] as number) >> (x & 1 ? 0 : 4)) & 0x0f;
        else index = ((buf[row + (x >> 3)] as number) >> (7 - (x & 7))) & 1;
        // An index past a short palette has no colour; it stays black rather than failing the capture.
        if (index * 4 + 3 < palette.length) {
          px[o] = palette[index * 4 + 2] as number;
          px[o + 1] = palette[index * 4 + 1] as number;
          px[o + 2] = palette[index * 4] as number;
        }
      } else if (masks) {
        const value = bpp === 16 ? buf.readUInt16LE(row + x * 2) : buf.readUInt32LE(row + x * 4);
        px[o] = widen(value, masks.r);
        px[o + 1] = widen(value, masks.g);
        px[o + 2] = widen(value, masks.b);
        if (masks.a) px[o + 3] = widen(value, masks.a);
      } else {
        // 24-bit BGR, and uncompressed 32-bit BGRX whose fourth byte is unused by definition.
        const at = row + x * (bpp / 8);
        px[o] = buf[at + 2] as number;
        px[o + 1] = buf[at + 1] as number;
        px[o + 2] = buf[at] as number;
      }
    }
  }
  return out;
}
