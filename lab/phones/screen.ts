import type { Canvas, Rgb } from './font.ts';
import { drawText, fillRect } from './font.ts';

export interface ScreenContent {
  name: string;
  lines: string[];
  width: number;
  height: number;
}

/**
 * The phone's idle screen: a header with the clock and the device name, one key per line with its
 * extension, and the softkey bar. A colour stripe derived from the device name tells phones apart.
 */
export function renderScreen(s: ScreenContent, now = new Date()): Canvas {
  const c: Canvas = { width: s.width, height: s.height, data: Buffer.alloc(s.width * s.height * 4) };
  fillRect(c, 0, 0, s.width, s.height, [232, 236, 239]);
  const header = Math.max(12, Math.round(s.height * 0.12));
  fillRect(c, 0, 0, s.width, header, [31, 58, 95]);
  const scale = Math.max(1, Math.floor(header / 8));
  const clock = `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
  drawText(c, clock, 4, Math.floor((header - 5 * scale) / 2), scale, [255, 255, 255]);
  const nameWidth = s.name.length * 4 * scale;
  drawText(
    c,
    s.name,
    Math.max(0, s.width - nameWidth - 4),
    Math.floor((header - 5 * scale) / 2),
    scale,
    [255, 255, 255],
  );

  let hash = 0;
  for (const ch of s.name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const stripe: Rgb = [hash & 0xff, (hash >> 8) & 0xff, (hash >> 16) & 0xff];
  fillRect(c, 0, header, s.width, Math.max(2, Math.round(s.height * 0.02)), stripe);

  const keyHeight = Math.max(10, Math.round(s.height * 0.12));
  const keyScale = Math.max(1, Math.floor(keyHeight / 8));
  s.lines.forEach((dn, i) => {
    const y = header + 8 + i * (keyHeight + 4);
    fillRect(c, 4, y, Math.round(s.width * 0.4), keyHeight, [46, 139, 87]);
    drawText(c, dn, 8, y + Math.floor((keyHeight - 5 * keyScale) / 2), keyScale, [255, 255, 255]);
  });

  const bar = Math.max(10, Math.round(s.height * 0.1));
  fillRect(c, 0, s.height - bar, s.width, bar, [60, 60, 60]);
  const softkeys = 4;
  const gap = 4;
  const w = Math.floor((s.width - gap * (softkeys + 1)) / softkeys);
  for (let i = 0; i < softkeys; i++)
    fillRect(c, gap + i * (w + gap), s.height - bar + 2, w, bar - 4, [120, 120, 120]);
  return c;
}
