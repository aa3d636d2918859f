import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeBmp, encodePng } from '../../../../lab/phones/encode.ts';
import { detectImageFormat, hexPrefix } from '../../../../plugins/cucm/phone/image-format.ts';

const canvas = { width: 2, height: 2, data: Buffer.alloc(16, 0x80) };

describe('screenshot format detection by magic bytes', () => {
  it('recognises PNG, BMP and XML from their first bytes', () => {
    assert.equal(detectImageFormat(encodePng(canvas)), 'png');
    assert.equal(detectImageFormat(encodeBmp(canvas)), 'bmp');
    assert.equal(
      detectImageFormat(Buffer.from('<CiscoIPPhoneImage><Width>1</Width></CiscoIPPhoneImage>')),
      'xml',
    );
    assert.equal(
      detectImageFormat(Buffer.from('\uFEFF\r\n  <?xml version="1.0"?><CiscoIPPhoneImage/>')),
      'xml',
    );
  });

  it('names formats it will refuse: JPEG, GIF, WebP, TIFF and HTML error pages', () => {
    assert.equal(detectImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46])), 'jpeg');
    assert.equal(detectImageFormat(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')), 'gif');
    assert.equal(detectImageFormat(Buffer.from('GIF87a\x01\x00', 'latin1')), 'gif');
    assert.equal(detectImageFormat(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')), 'webp');
    assert.equal(detectImageFormat(Buffer.from('II*\x00\x08\x00', 'latin1')), 'tiff');
    assert.equal(detectImageFormat(Buffer.from('<html><body>Not Found</body></html>')), 'html');
    assert.equal(
      detectImageFormat(Buffer.from('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">')),
      'html',
    );
    assert.equal(
      detectImageFormat(Buffer.from('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">')),
      'html',
      'XHTML is an error page, not Cisco XML',
    );
  });

  it('does not trust a label: the body decides, whatever it claims to be', () => {
    // A PNG signature that stops short is not a PNG, nor is text starting with BM.
    assert.equal(detectImageFormat(encodePng(canvas).subarray(0, 4)), 'unknown');
    assert.equal(detectImageFormat(encodePng(canvas).subarray(0, 7)), 'unknown');
    assert.equal(detectImageFormat(Buffer.from('BMW')), 'unknown');
    assert.equal(detectImageFormat(Buffer.from('image/png')), 'unknown');
    assert.equal(detectImageFormat(Buffer.from([0, 1, 2, 3])), 'unknown');
  });

  it('tells an empty body apart', () => {
    assert.equal(detectImageFormat(Buffer.alloc(0)), 'empty');
    assert.equal(detectImageFormat(Buffer.from('   \r\n')), 'unknown');
  });

  it('shows the first bytes in hex without echoing the rest', () => {
    assert.equal(hexPrefix(Buffer.from([0xff, 0xd8, 0xff])), 'ff d8 ff');
    const long = hexPrefix(Buffer.alloc(1000, 0xab));
    assert.equal(long, `${Array(16).fill('ab').join(' ')} ...`);
  });
});
