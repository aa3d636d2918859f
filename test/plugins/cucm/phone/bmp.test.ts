import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError, PayloadTooLargeError } from '../../../../kernel/sdk/index.ts';
import { encodeBmp } from '../../../../lab/phones/encode.ts';
import { renderScreen } from '../../../../lab/phones/screen.ts';
import { decodeBmp } from '../../../../plugins/cucm/phone/bmp.ts';
import { buildBmp, expectedRgba, firstDifference, type BmpSpec } from './bmp-builder.ts';

type Rgba = [number, number, number, number];

function assertDecodes(spec: BmpSpec, color: (x: number, y: number) => Rgba): void {
  const image = decodeBmp(buildBmp(spec));
  const height = Math.abs(spec.height);
  assert.equal(image.width, spec.width);
  assert.equal(image.height, height);
  const diff = firstDifference(image.width, image.data, expectedRgba(spec.width, height, color));
  assert.equal(diff, undefined, diff);
}

const scale = (v: number, max: number): number => Math.round((v * 255) / max);

describe('BMP decoder: every supported depth and orientation, pixel by pixel', () => {
  const two: [number, number, number][] = [
    [10, 20, 30],
    [200, 210, 220],
  ];
  for (const topDown of [false, true]) {
    const h = (rows: number): number => (topDown ? -rows : rows);
    const label = topDown ? 'top-down' : 'bottom-up';

    it(`1 bit, palette, width not a multiple of 8 (${label})`, () => {
      const index = (x: number, y: number): number => ((x * 3 + y) % 5 === 0 ? 1 : 0);
      assertDecodes({ width: 11, height: h(3), bpp: 1, palette: two, pixel: index }, (x, y) => [
        ...(two[index(x, y)] as [number, number, number]),
        255,
      ]);
    });

    it(`4 bits, 16-colour palette, odd width (${label})`, () => {
      const palette = Array.from({ length: 16 }, (_, i): [number, number, number] => [
        i * 16,
        255 - i * 8,
        i * 5,
      ]);
      const index = (x: number, y: number): number => (x * 3 + y * 7) % 16;
      assertDecodes({ width: 5, height: h(3), bpp: 4, palette, pixel: index }, (x, y) => [
        ...(palette[index(x, y)] as [number, number, number]),
        255,
      ]);
    });

    it(`8 bits, 256-colour palette (${label})`, () => {
      const palette = Array.from({ length: 256 }, (_, i): [number, number, number] => [
        i,
        255 - i,
        (i * 7) & 255,
      ]);
      const index = (x: number, y: number): number => (x * 37 + y * 11) % 256;
      assertDecodes({ width: 7, height: h(4), bpp: 8, palette, pixel: index }, (x, y) => [
        ...(palette[index(x, y)] as [number, number, number]),
        255,
      ]);
    });

    it(`16 bits, uncompressed X1R5G5B5 (${label})`, () => {
      const rgb = (x: number, y: number): [number, number, number] => [
        (x * 5) % 32,
        (y * 9) % 32,
        (x + y) % 32,
      ];
      const pack = (x: number, y: number): number => {
        const [r, g, b] = rgb(x, y);
        return (r << 10) | (g << 5) | b | 0x8000; // the top bit is unused and must be ignored
      };
      assertDecodes({ width: 5, height: h(3), bpp: 16, pixel: pack }, (x, y) => {
        const [r, g, b] = rgb(x, y);
        return [scale(r, 31), scale(g, 31), scale(b, 31), 255];
      });
    });

    it(`16 bits, BI_BITFIELDS R5G6B5 after a 40-byte header (${label})`, () => {
      const rgb = (x: number, y: number): [number, number, number] => [
        (x * 7) % 32,
        (y * 13 + x) % 64,
        (x + 2 * y) % 32,
      ];
      const pack = (x: number, y: number): number => {
        const [r, g, b] = rgb(x, y);
        return (r << 11) | (g << 5) | b;
      };
      assertDecodes(
        { width: 3, height: h(3), bpp: 16, compression: 3, masks: [0xf800, 0x07e0, 0x001f], pixel: pack },
        (x, y) => {
          const [r, g, b] = rgb(x, y);
          return [scale(r, 31), scale(g, 63), scale(b, 31), 255];
        },
      );
    });

    it(`24 bits with row padding (${label})`, () => {
      const color = (x: number, y: number): number =>
        ((x * 40) << 16) | ((y * 50) << 8) | ((x * y * 13) & 0xff);
      assertDecodes({ width: 3, height: h(4), bpp: 24, pixel: color }, (x, y) => {
        const c = color(x, y);
        return [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff, 255];
      });
    });

    it(`32 bits uncompressed BGRX: the fourth byte is not alpha (${label})`, () => {
      const color = (x: number, y: number): number => ((x * 60) << 16) | ((y * 70) << 8) | (x + y);
      assertDecodes({ width: 4, height: h(2), bpp: 32, pixel: color }, (x, y) => {
        const c = color(x, y);
        return [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff, 255];
      });
    });
  }

  it('8 bits with biClrUsed smaller than 256: the palette is read short, and an index past it is black', () => {
    const palette: [number, number, number][] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
    ];
    const index = (x: number): number => x; // 0, 1, 2 and then 3, past the palette
    assertDecodes({ width: 4, height: 1, bpp: 8, palette, pixel: index }, (x) =>
      x < 3 ? [...(palette[x] as [number, number, number]), 255] : [0, 0, 0, 255],
    );
  });

  it('16 bits R5G6B5 with masks inside a V4 (108-byte) header', () => {
    const pack = (x: number, y: number): number =>
      (((x * 9) % 32) << 11) | (((y * 17) % 64) << 5) | ((x * y) % 32);
    assertDecodes(
      {
        width: 4,
        height: 2,
        bpp: 16,
        headerSize: 108,
        compression: 3,
        masks: [0xf800, 0x07e0, 0x001f, 0],
        pixel: pack,
      },
      (x, y) => [scale((x * 9) % 32, 31), scale((y * 17) % 64, 63), scale((x * y) % 32, 31), 255],
    );
  });

  it('32 bits BI_BITFIELDS with an alpha mask in a V5 (124-byte) header, in a non-BGRA channel order', () => {
    // R in the low byte, A in the high byte: only reading the masks gets this right.
    const rgba = (x: number, y: number): Rgba => [x * 30, y * 40, 200 - x, 255 - x * 50];
    const pack = (x: number, y: number): number => {
      const [r, g, b, a] = rgba(x, y);
      return (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;
    };
    assertDecodes(
      {
        width: 4,
        height: -3,
        bpp: 32,
        headerSize: 124,
        compression: 3,
        masks: [0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000],
        pixel: pack,
      },
      rgba,
    );
  });

  it('32 bits BI_ALPHABITFIELDS after a 40-byte header (four masks), and a V3 (56-byte) header', () => {
    const rgba = (x: number, y: number): Rgba => [x * 20, 255 - y * 20, x * y, 128 + x];
    const pack = (x: number, y: number): number => {
      const [r, g, b, a] = rgba(x, y);
      return ((a << 24) | (r << 16) | (g << 8) | b) >>> 0;
    };
    const masks = [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
    assertDecodes({ width: 3, height: 3, bpp: 32, compression: 6, masks, pixel: pack }, rgba);
    assertDecodes({ width: 3, height: 3, bpp: 32, headerSize: 56, compression: 3, masks, pixel: pack }, rgba);
  });

  it('a 10-bit-per-channel 32-bit bitfield bitmap is scaled to 8 bits', () => {
    const pack = (x: number): number => ((x * 341) << 20) | ((1023 - x * 100) << 10) | (x * 3);
    assertDecodes(
      {
        width: 4,
        height: 1,
        bpp: 32,
        compression: 3,
        masks: [0x3ff00000, 0x000ffc00, 0x000003ff],
        pixel: pack,
      },
      (x) => [scale(x * 341, 1023), scale(1023 - x * 100, 1023), scale(x * 3, 1023), 255],
    );
  });

  it("decodes the lab's own 7965 screen exactly (24-bit bottom-up, 320x222)", () => {
    const canvas = renderScreen({ name: 'SEP0A1B2C3D4E02', lines: ['1002'], width: 320, height: 222 });
    const image = decodeBmp(encodeBmp(canvas));
    assert.equal(image.width, 320);
    assert.equal(image.height, 222);
    const diff = firstDifference(320, image.data, canvas.data);
    assert.equal(diff, undefined, diff);
  });
});

describe('BMP decoder: malformed and hostile headers', () => {
  const refuses = (
    spec: BmpSpec | Buffer,
    code: typeof BadRequestError | typeof PayloadTooLargeError,
    msg: RegExp,
  ) =>
    assert.throws(
      () => decodeBmp(Buffer.isBuffer(spec) ? spec : buildBmp(spec)),
      (err: unknown) => {
        assert.ok(err instanceof code, `expected ${code.name}, got ${String(err)}`);
        assert.match((err as Error).message, msg);
        return true;
      },
    );

  it('refuses RLE8, RLE4, JPEG and PNG compression by name', () => {
    refuses(
      { width: 4, height: 4, bpp: 8, compression: 1, palette: [[0, 0, 0]] },
      BadRequestError,
      /RLE8-compressed/,
    );
    refuses(
      { width: 4, height: 4, bpp: 4, compression: 2, palette: [[0, 0, 0]] },
      BadRequestError,
      /RLE4-compressed/,
    );
    refuses({ width: 4, height: 4, bpp: 24, compression: 4 }, BadRequestError, /JPEG-compressed/);
    refuses({ width: 4, height: 4, bpp: 24, compression: 5 }, BadRequestError, /PNG-compressed/);
    refuses({ width: 4, height: 4, bpp: 24, compression: 99 }, BadRequestError, /unknown compression 99/);
  });

  it('refuses zero, negative and absurd dimensions before allocating anything', () => {
    refuses({ width: -5, height: 4, bpp: 24 }, BadRequestError, /invalid size -5x4/);
    refuses({ width: 0, height: 4, bpp: 24 }, BadRequestError, /invalid size 0x4/);
    refuses({ width: 4, height: 0, bpp: 24 }, BadRequestError, /invalid size 4x0/);
    refuses(
      { width: 0x7fffffff, height: 0x7fffffff, bpp: 24 },
      PayloadTooLargeError,
      /2147483647x2147483647 pixels, over the limit of 8192 a side/,
    );
    refuses(
      { width: 4, height: -0x80000000, bpp: 24 },
      PayloadTooLargeError,
      /4x2147483648 pixels, over the limit of 8192 a side/,
    );
    refuses(
      { width: 8193, height: 1, bpp: 24 },
      PayloadTooLargeError,
      /8193x1 pixels, over the limit of 8192 a side/,
    );
    // Each side within its limit, the product over.
    refuses(
      { width: 8192, height: 2049, bpp: 24 },
      PayloadTooLargeError,
      /8192x2049 pixels, over the limit of 16777216 pixels/,
    );
  });

  it('keeps memory bounded: a complete 1-bit bitmap of one pixel too many is refused without decoding', () => {
    // 2 MiB of file would be 64 MiB of RGBA: the limit must stop it before the raster exists.
    const file = buildBmp({
      width: 4096,
      height: 4097,
      bpp: 1,
      palette: [
        [0, 0, 0],
        [255, 255, 255],
      ],
      pixel: () => 1,
    });
    assert.ok(file.length > 2_000_000, 'the pixel data is all there: only the limit refuses it');
    const before = process.memoryUsage().arrayBuffers;
    refuses(file, PayloadTooLargeError, /4096x4097 pixels, over the limit of 16777216 pixels/);
    const grown = process.memoryUsage().arrayBuffers - before;
    assert.ok(grown < 16 * 1024 * 1024, `decoding a refused bitmap grew buffers by ${grown} bytes`);
  });

  it('refuses truncated pixel data, palettes, masks and headers', () => {
    refuses(
      { width: 10, height: 10, bpp: 24, pixel: () => 0, truncateTo: 54 + 32 * 9 },
      BadRequestError,
      /is truncated: 10x10 at 24 bits needs 320 bytes/,
    );
    refuses({ width: 4, height: 4, bpp: 24 }, BadRequestError, /is truncated/);
    refuses(
      { width: 2, height: 2, bpp: 8, palette: [[1, 2, 3]], colorsUsed: 200, pixel: () => 0, truncateTo: 80 },
      BadRequestError,
      /inside its palette/,
    );
    refuses(
      { width: 2, height: 2, bpp: 16, compression: 3, masks: [0xf800, 0x07e0, 0x001f], truncateTo: 60 },
      BadRequestError,
      /inside its bit masks/,
    );
    refuses(
      { width: 2, height: 2, bpp: 24, headerSize: 124, truncateTo: 100 },
      BadRequestError,
      /inside its header/,
    );
    refuses(Buffer.from('BM\0\0\0\0'), BadRequestError, /no BMP file header/);
    refuses(
      { width: 2, height: 2, bpp: 24, pixel: () => 0, pixelOffset: 1_000_000 },
      BadRequestError,
      /pixel offset 1000000 outside/,
    );
  });

  it('refuses unsupported headers, depths, planes and bit masks', () => {
    const core = buildBmp({ width: 2, height: 2, bpp: 24, pixel: () => 0 });
    core.writeUInt32LE(12, 14);
    refuses(core, BadRequestError, /BITMAPCOREHEADER/);
    refuses(
      { width: 2, height: 2, bpp: 24, headerSize: 64 },
      BadRequestError,
      /unknown DIB header of 64 bytes/,
    );
    refuses({ width: 2, height: 2, bpp: 2 }, BadRequestError, /depth of 2 bits/);
    refuses({ width: 2, height: 2, bpp: 24, planes: 3 }, BadRequestError, /3 colour planes/);
    refuses(
      { width: 2, height: 2, bpp: 24, compression: 3, masks: [0xff0000, 0xff00, 0xff] },
      BadRequestError,
      /bit-field masks with 24 bits/,
    );
    refuses(
      { width: 2, height: 2, bpp: 16, compression: 3, masks: [0, 0x07e0, 0x001f] },
      BadRequestError,
      /empty red bit mask/,
    );
    refuses(
      { width: 2, height: 2, bpp: 16, compression: 3, masks: [0xf801, 0x07e0, 0x001e] },
      BadRequestError,
      /non-contiguous red/,
    );
    refuses(
      { width: 2, height: 2, bpp: 16, compression: 3, masks: [0xf8000, 0x07e0, 0x001f] },
      BadRequestError,
      /wider than 16 bits/,
    );
  });
});
