import { PNG } from 'pngjs';
import type { Canvas } from './font.ts';

export function encodePng(c: Canvas): Buffer {
  const png = new PNG({ width: c.width, height: c.height });
  c.data.copy(png.data);
  return PNG.sync.write(png);
}

/** A 24-bit uncompressed Windows bitmap, as older phones answer: bottom-up rows padded to 4 bytes. */
export function encodeBmp(c: Canvas): Buffer {
  const rowSize = Math.ceil((c.width * 3) / 4) * 4;
  const pixelBytes = rowSize * c.height;
  const out = Buffer.alloc(54 + pixelBytes);
  out.write('BM', 0, 'ascii');
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(c.width, 18);
  out.writeInt32LE(c.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(0, 30);
  out.writeUInt32LE(pixelBytes, 34);
  out.writeInt32LE(2835, 38);
  out.writeInt32LE(2835, 42);
  for (let y = 0; y < c.height; y++) {
    const row = 54 + (c.height - 1 - y) * rowSize;
    for (let x = 0; x < c.width; x++) {
      const src = (y * c.width + x) * 4;
      out[row + x * 3] = c.data[src + 2] as number;
      out[row + x * 3 + 1] = c.data[src + 1] as number;
      out[row + x * 3 + 2] = c.data[src] as number;
    }
  }
  return out;
}
