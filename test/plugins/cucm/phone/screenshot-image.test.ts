import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { BadRequestError, CredentialError, PayloadTooLargeError } from '../../../../kernel/sdk/index.ts';
import { encodeBmp, encodePng } from '../../../../lab/phones/encode.ts';
import { renderScreen } from '../../../../lab/phones/screen.ts';
import { screenshotToPng } from '../../../../plugins/cucm/phone/screenshot-image.ts';
import { firstDifference } from './bmp-builder.ts';

const screen = (width: number, height: number) =>
  renderScreen({ name: 'SEP001122334455', lines: ['1001', '1002'], width, height });

function refuses(
  bytes: Buffer,
  code: typeof BadRequestError | typeof PayloadTooLargeError | typeof CredentialError,
  msg: RegExp,
): void {
  assert.throws(
    () => screenshotToPng(bytes),
    (err: unknown) => {
      assert.ok(err instanceof code, `expected ${code.name}, got ${String(err)}`);
      assert.match((err as Error).message, msg);
      return true;
    },
  );
}

describe('screenshot bytes to PNG', () => {
  it("passes a phone's PNG through unchanged, after checking that it decodes", () => {
    const png = encodePng(screen(800, 480));
    const shot = screenshotToPng(png);
    assert.equal(shot.png, png, 'the same bytes, not a re-encoding');
    assert.deepEqual([shot.width, shot.height, shot.sourceFormat], [800, 480, 'png']);
  });

  it('converts a BMP to a PNG with the same pixels', () => {
    const canvas = screen(320, 222);
    const shot = screenshotToPng(encodeBmp(canvas));
    assert.deepEqual([shot.width, shot.height, shot.sourceFormat], [320, 222, 'bmp']);
    const decoded = PNG.sync.read(shot.png);
    const diff = firstDifference(320, decoded.data, canvas.data);
    assert.equal(diff, undefined, diff);
  });

  it('converts a CiscoIPPhoneImage to a grayscale PNG', () => {
    const shot = screenshotToPng(
      Buffer.from(
        '<CiscoIPPhoneImage><Width>4</Width><Height>1</Height><Depth>2</Depth><Data>2D</Data></CiscoIPPhoneImage>',
      ),
    );
    assert.deepEqual([shot.width, shot.height, shot.sourceFormat], [4, 1, 'cisco-xml']);
    const decoded = PNG.sync.read(shot.png);
    assert.deepEqual([...decoded.data.subarray(0, 4)], [170, 170, 170, 255]);
    assert.deepEqual([...decoded.data.subarray(4, 8)], [0, 0, 0, 255]);
  });

  it('refuses a PNG that does not decode: a flipped byte (CRC) or a cut-off body', () => {
    const png = encodePng(screen(40, 30));
    const flipped = Buffer.from(png);
    flipped[png.length - 20] = (flipped[png.length - 20] as number) ^ 0xff;
    refuses(flipped, BadRequestError, /PNG screenshot does not decode/);
    refuses(png.subarray(0, png.length - 30), BadRequestError, /PNG screenshot does not decode/);
    refuses(png.subarray(0, 12), BadRequestError, /truncated or does not start with its IHDR/);
  });

  it('refuses a PNG whose IHDR claims absurd dimensions before pngjs allocates them', () => {
    const png = Buffer.from(encodePng(screen(40, 30)));
    png.writeUInt32BE(60_000, 16);
    png.writeUInt32BE(60_000, 20);
    const before = process.memoryUsage().arrayBuffers;
    refuses(png, PayloadTooLargeError, /60000x60000/);
    assert.ok(process.memoryUsage().arrayBuffers - before < 16 * 1024 * 1024);
    png.writeUInt32BE(5000, 16);
    png.writeUInt32BE(5000, 20);
    refuses(png, PayloadTooLargeError, /5000x5000 pixels, over the limit of 16777216 pixels/);
    assert.ok(process.memoryUsage().arrayBuffers - before < 16 * 1024 * 1024);
  });

  it('refuses JPEG, GIF, HTML, empty and unknown bodies, showing the first bytes in hex', () => {
    refuses(
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      BadRequestError,
      /a JPEG image.*first bytes: ff d8 ff e0 00 10\)/,
    );
    refuses(
      Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
      BadRequestError,
      /a GIF image.*first bytes: 47 49 46 38 39 61/,
    );
    refuses(Buffer.from('<html><body>Forbidden</body></html>'), BadRequestError, /an HTML page/);
    refuses(
      Buffer.alloc(0),
      BadRequestError,
      /answered an empty body instead of a PNG, BMP or CiscoIPPhoneImage screenshot$/,
    );
    refuses(Buffer.alloc(5000, 0x41), BadRequestError, /no known image format.*41 41 \.\.\.\)$/);
  });

  it("passes on the phone's authentication error from XML as a CredentialError", () => {
    refuses(Buffer.from('<CiscoIPPhoneError Number="4"/>'), CredentialError, /CiscoIPPhoneError 4/);
  });
});
