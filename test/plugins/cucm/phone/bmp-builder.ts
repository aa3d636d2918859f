// Builds Windows bitmaps byte by byte for the decoder tests, independently of the decoder: every
// field is written where the format puts it, so a test can also forge any of them.

export interface BmpSpec {
  width: number;
  /** Rows as stored: negative for a top-down bitmap. */
  height: number;
  bpp: number;
  /** DIB header size: 40, 52, 56, 108, 124 (or anything, to forge). */
  headerSize?: number;
  compression?: number;
  /** Bit masks: written inside a V2+ header, or after a 40-byte header when the compression has masks. */
  masks?: number[];
  /** Palette entries as [r, g, b]. */
  palette?: [number, number, number][];
  /** biClrUsed; defaults to the palette's length. */
  colorsUsed?: number;
  planes?: number;
  /** The raw value of pixel (x, y), y counted from the top of the picture. */
  pixel?: (x: number, y: number) => number;
  /** Cut the file after this many bytes. */
  truncateTo?: number;
  /** Override the pixel-data offset field. */
  pixelOffset?: number;
}

export function buildBmp(s: BmpSpec): Buffer {
  const headerSize = s.headerSize ?? 40;
  const compression = s.compression ?? 0;
  const masks = s.masks ?? [];
  const masksAfterHeader = headerSize === 40 && masks.length > 0 ? masks.length * 4 : 0;
  const palette = s.palette ?? [];
  const paletteAt = 14 + headerSize + masksAfterHeader;
  const pixelOffset = paletteAt + palette.length * 4;
  const width = s.width;
  const rows = Math.abs(s.height);
  const stride = Math.floor((s.bpp * Math.max(width, 0) + 31) / 32) * 4;
  const pixelBytes = s.pixel ? stride * rows : 0;
  const out = Buffer.alloc(pixelOffset + pixelBytes);

  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(s.pixelOffset ?? pixelOffset, 10);
  out.writeUInt32LE(headerSize, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(s.height, 22);
  out.writeUInt16LE(s.planes ?? 1, 26);
  out.writeUInt16LE(s.bpp, 28);
  out.writeUInt32LE(compression, 30);
  out.writeUInt32LE(pixelBytes, 34);
  out.writeInt32LE(2835, 38);
  out.writeInt32LE(2835, 42);
  out.writeUInt32LE(s.colorsUsed ?? palette.length, 46);
  masks.forEach((m, i) => out.writeUInt32LE(m >>> 0, 54 + i * 4));
  palette.forEach(([r, g, b], i) => {
    out[paletteAt + i * 4] = b;
    out[paletteAt + i * 4 + 1] = g;
    out[paletteAt + i * 4 + 2] = r;
  });

  if (s.pixel) {
    for (let y = 0; y < rows; y++) {
      const stored = s.height < 0 ? y : rows - 1 - y;
      const row = pixelOffset + stored * stride;
      for (let x = 0; x < width; x++) {
        const v = s.pixel(x, y);
        switch (s.bpp) {
          case 1:
            out[row + (x >> 3)] = (out[row + (x >> 3)] as number) | (v << (7 - (x & 7)));
            break;
          case 4:
            out[row + (x >> 1)] = (out[row + (x >> 1)] as number) | (v << (x & 1 ? 0 : 4));
            break;
          case 8:
            out[row + x] = v;
            break;
          case 16:
            out.writeUInt16LE(v, row + x * 2);
            break;
          case 24:
            // v is 0xRRGGBB; stored as B, G, R.
            out[row + x * 3] = v & 0xff;
            out[row + x * 3 + 1] = (v >> 8) & 0xff;
            out[row + x * 3 + 2] = (v >> 16) & 0xff;
            break;
          case 32:
            out.writeUInt32LE(v >>> 0, row + x * 4);
            break;
          default:
            throw new Error(`builder cannot write ${s.bpp} bits`);
        }
      }
    }
  }
  return s.truncateTo === undefined ? out : out.subarray(0, s.truncateTo);
}

/** The RGBA raster a test expects, from a colour function over (x, y) top-down. */
export function expectedRgba(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number, number],
): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out.set(color(x, y), (y * width + x) * 4);
  return out;
}

/** The first pixel where two RGBA rasters differ, for a readable failure; undefined when equal. */
export function firstDifference(width: number, got: Buffer, want: Buffer): string | undefined {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < got.length; i += 4) {
    if (got.compare(want, i, i + 4, i, i + 4) !== 0) {
      const p = i / 4;
      return `pixel (${p % width}, ${Math.floor(p / width)}): got ${[...got.subarray(i, i + 4)].join(',')} want ${[...want.subarray(i, i + 4)].join(',')}`;
    }
  }
  return undefined;
}
