import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError, CredentialError, PayloadTooLargeError } from '../../../../kernel/sdk/index.ts';
import { decodeCiscoImageXml, rootElementName } from '../../../../plugins/cucm/phone/cisco-image-xml.ts';
import { expectedRgba, firstDifference } from './bmp-builder.ts';

const image = (fields: string, prolog = ''): Buffer =>
  Buffer.from(`${prolog}<CiscoIPPhoneImage><Title>Screenshot</Title>${fields}<Prompt/></CiscoIPPhoneImage>`);

/** Packs 2-bit values the documented way: four a byte, the first pixel in the least significant bits. */
function pack(values: number[]): string {
  const bytes = Buffer.alloc(Math.ceil(values.length / 4));
  values.forEach((v, i) => {
    bytes[i >> 2] = (bytes[i >> 2] as number) | (v << ((i & 3) * 2));
  });
  return bytes.toString('hex').toUpperCase();
}

const gray = (v: number): [number, number, number, number] => [255 - v * 85, 255 - v * 85, 255 - v * 85, 255];

describe('CiscoIPPhoneImage screenshots (old firmware)', () => {
  it("decodes the Development Notes' own example: Data 2D is the pixels 1, 3, 2, 0", () => {
    const out = decodeCiscoImageXml(
      image(
        '<LocationX>-1</LocationX><LocationY>-1</LocationY><Width>4</Width><Height>1</Height><Depth>2</Depth><Data>2D</Data>',
      ),
    );
    assert.equal(out.width, 4);
    assert.equal(out.height, 1);
    assert.deepEqual([...out.data], [...gray(1), ...gray(3), ...gray(2), ...gray(0)]);
  });

  it('decodes a picture whose pixel count is not a multiple of four (rows not padded, the end is)', () => {
    const width = 5;
    const height = 3;
    const value = (x: number, y: number): number => (x * 2 + y) % 4;
    const values: number[] = [];
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) values.push(value(x, y));
    const hex = pack(values);
    assert.equal(hex.length, 8, '15 pixels take 4 bytes');
    // Line breaks inside <Data>, an XML declaration, a comment and a BOM are all tolerated.
    const xml = image(
      `<Width> 5 </Width><Height>3</Height><Depth>2</Depth><Data>\n${hex.slice(0, 4)}\n${hex.slice(4)}\n</Data>`,
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<!-- screen -->\n',
    );
    const out = decodeCiscoImageXml(xml);
    const diff = firstDifference(
      width,
      out.data,
      expectedRgba(width, height, (x, y) => gray(value(x, y))),
    );
    assert.equal(diff, undefined, diff);
  });

  it('a phone-sized 133x65 screen decodes to that size', () => {
    const values = Array.from({ length: 133 * 65 }, (_, i) => i % 4);
    const out = decodeCiscoImageXml(
      image(`<Width>133</Width><Height>65</Height><Depth>2</Depth><Data>${pack(values)}</Data>`),
    );
    assert.equal(out.width, 133);
    assert.equal(out.height, 65);
    assert.deepEqual([...out.data.subarray(132 * 4, 134 * 4)], [...gray(132 % 4), ...gray(133 % 4)]);
  });

  const refuses = (
    xml: Buffer | string,
    code: typeof BadRequestError | typeof CredentialError | typeof PayloadTooLargeError,
    msg: RegExp,
  ) =>
    assert.throws(
      () => decodeCiscoImageXml(Buffer.isBuffer(xml) ? xml : Buffer.from(xml)),
      (err: unknown) => {
        assert.ok(err instanceof code, `expected ${code.name}, got ${String(err)}`);
        assert.match((err as Error).message, msg);
        return true;
      },
    );

  it('refuses depths other than 2, short or non-hex data, missing or non-numeric sizes', () => {
    refuses(
      image('<Width>8</Width><Height>1</Height><Depth>1</Depth><Data>FF</Data>'),
      BadRequestError,
      /Depth 1; only 2-bit/,
    );
    refuses(
      image('<Width>8</Width><Height>2</Height><Depth>2</Depth><Data>FFFF</Data>'),
      BadRequestError,
      /truncated: 8x2 at 2 bits needs 4 bytes, <Data> has 2/,
    );
    refuses(
      image('<Width>4</Width><Height>1</Height><Depth>2</Depth><Data>ZZ</Data>'),
      BadRequestError,
      /not a string of hex/,
    );
    refuses(
      image('<Width>4</Width><Height>1</Height><Depth>2</Depth><Data>2D2</Data>'),
      BadRequestError,
      /not a string of hex/,
    );
    refuses(image('<Width>4</Width><Height>1</Height><Depth>2</Depth><Data/>'), BadRequestError, /truncated/);
    refuses(image('<Height>1</Height><Depth>2</Depth><Data>2D</Data>'), BadRequestError, /has no <Width>/);
    refuses(
      image('<Width>-4</Width><Height>1</Height><Depth>2</Depth><Data>2D</Data>'),
      BadRequestError,
      /non-numeric <Width>/,
    );
    refuses(
      image('<Width>0</Width><Height>1</Height><Depth>2</Depth><Data>2D</Data>'),
      BadRequestError,
      /invalid size 0x1/,
    );
  });

  it('refuses absurd sizes before decoding the hex', () => {
    refuses(
      image('<Width>999999</Width><Height>999999</Height><Depth>2</Depth><Data>00</Data>'),
      PayloadTooLargeError,
      /999999x999999/,
    );
  });

  it('turns CiscoIPPhoneError 4 (authentication) into a CredentialError, other numbers and objects into BadRequest', () => {
    refuses(
      '<?xml version="1.0"?><CiscoIPPhoneError Number="4"/>',
      CredentialError,
      /refused the credentials/,
    );
    refuses(
      '<CiscoIPPhoneError Number="3" />',
      BadRequestError,
      /CiscoIPPhoneError 3 instead of a screenshot/,
    );
    refuses(
      '<CiscoIPPhoneImageFile><URL>http://x/a.png</URL></CiscoIPPhoneImageFile>',
      BadRequestError,
      /only points to an image by URL/,
    );
    refuses(
      '<CiscoIPPhoneText><Text>hi</Text></CiscoIPPhoneText>',
      BadRequestError,
      /XML <CiscoIPPhoneText> object, not a screenshot/,
    );
    refuses('<?xml version="1.0"', BadRequestError, /not a well-formed XML document/);
  });

  it('finds the root element after declarations, comments and a DOCTYPE', () => {
    assert.equal(
      rootElementName('<?xml version="1.0"?>\n<!-- c --><!DOCTYPE x><CiscoIPPhoneImage>'),
      'CiscoIPPhoneImage',
    );
    assert.equal(rootElementName('  <a:b x="1">'), 'a:b');
    assert.equal(rootElementName('<!-- never closed'), undefined);
    assert.equal(rootElementName('text'), undefined);
  });
});
