/**
 * A 3x5 pixel font for the characters a phone screen shows here (device names, extensions, a clock), so a
 * screenshot is recognisable rather than noise. Each glyph is five rows of three bits.
 */
const GLYPHS: Record<string, number[]> = {
  '0': [7, 5, 5, 5, 7],
  '1': [2, 6, 2, 2, 7],
  '2': [7, 1, 7, 4, 7],
  '3': [7, 1, 7, 1, 7],
  '4': [5, 5, 7, 1, 1],
  '5': [7, 4, 7, 1, 7],
  '6': [7, 4, 7, 5, 7],
  '7': [7, 1, 1, 1, 1],
  '8': [7, 5, 7, 5, 7],
  '9': [7, 5, 7, 1, 7],
  A: [2, 5, 7, 5, 5],
  B: [6, 5, 6, 5, 6],
  C: [7, 4, 4, 4, 7],
  D: [6, 5, 5, 5, 6],
  E: [7, 4, 6, 4, 7],
  F: [7, 4, 6, 4, 4],
  P: [7, 5, 7, 4, 4],
  S: [7, 4, 7, 1, 7],
  ':': [0, 2, 0, 2, 0],
  '-': [0, 0, 7, 0, 0],
  ' ': [0, 0, 0, 0, 0],
};

export type Rgb = [number, number, number];

export interface Canvas {
  width: number;
  height: number;
  /** RGBA, row-major from the top. */
  data: Buffer;
}

export function fillRect(c: Canvas, x: number, y: number, w: number, h: number, rgb: Rgb): void {
  for (let j = Math.max(0, y); j < Math.min(c.height, y + h); j++) {
    for (let i = Math.max(0, x); i < Math.min(c.width, x + w); i++) {
      const o = (j * c.width + i) * 4;
      c.data[o] = rgb[0];
      c.data[o + 1] = rgb[1];
      c.data[o + 2] = rgb[2];
      c.data[o + 3] = 255;
    }
  }
}

/** Draws `text` with its top-left corner at (x, y), each font pixel `scale` screen pixels wide. */
export function drawText(c: Canvas, text: string, x: number, y: number, scale: number, rgb: Rgb): void {
  let cx = x;
  for (const ch of text.toUpperCase()) {
    const glyph = GLYPHS[ch] ?? GLYPHS[' '] ?? [];
    glyph.forEach((bits, row) => {
      for (let col = 0; col < 3; col++) {
        if (bits & (4 >> col)) fillRect(c, cx + col * scale, y + row * scale, scale, scale, rgb);
      }
    });
    cx += 4 * scale;
  }
}
