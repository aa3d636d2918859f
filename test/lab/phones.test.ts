import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab } from '../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode } from '../../lab/index.ts';
import { axl, call, startTestLab } from './helpers.ts';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('IP phone web servers', () => {
  let lab: Lab;
  before(async () => {
    lab = await startTestLab();
  });
  after(() => lab.stop());

  const screenshot = (name: string, auth?: { user: string; password: string }) => {
    const phone = labNode(lab.info, 'phone', name);
    return call(phone.urls.screenshot as string, auth ? { auth } : {});
  };

  it('answers PNG for an 8865 and BMP for a 7965, each on its own port', async () => {
    const p8865 = labNode(lab.info, 'phone', 'SEP0A1B2C3D4E01');
    const p7965 = labNode(lab.info, 'phone', 'SEP0A1B2C3D4E02');
    assert.notEqual(p8865.ports.http, p7965.ports.http);
    assert.equal(p8865.screenshotFormat, 'png');
    const png = await screenshot(p8865.name, DEMO_CREDENTIALS.phone);
    assert.equal(png.status, 200);
    assert.equal(png.headers['content-type'], 'image/png');
    assert.deepEqual(png.body.subarray(0, 8), PNG_MAGIC);
    assert.equal(png.body.readUInt32BE(16), 800, 'PNG width from IHDR');

    const bmp = await screenshot(p7965.name, DEMO_CREDENTIALS.phone);
    assert.equal(bmp.status, 200);
    assert.equal(bmp.headers['content-type'], 'image/bmp');
    assert.equal(bmp.body.subarray(0, 2).toString('ascii'), 'BM');
    assert.equal(bmp.body.readUInt32LE(2), bmp.body.length, 'BMP file size field');
    assert.equal(bmp.body.readInt32LE(18), 320);
    assert.equal(bmp.body.readUInt16LE(28), 24, '24 bits per pixel');
    assert.equal(lab.state.phones.find((p) => p.name === p7965.name)?.screenshots, 1);
  });

  it('answers 401 without credentials, with a wrong password, and for a user who does not control the phone', async () => {
    const name = 'SEP0A1B2C3D4E01';
    const none = await screenshot(name);
    assert.equal(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), /^Basic /);
    assert.equal((await screenshot(name, { user: 'jsmith', password: 'nope' })).status, 401);
    assert.equal(
      (await screenshot(name, DEMO_CREDENTIALS.phoneOther)).status,
      401,
      'mlee does not control this phone',
    );
    assert.equal(
      (await screenshot('SEP0A1B2C3D4E03', DEMO_CREDENTIALS.phoneOther)).status,
      200,
      'but does control her own',
    );
  });

  it('follows the CUCM device association: an AXL updateUser granting the device opens the phone', async () => {
    const name = 'SEP0A1B2C3D4E04';
    assert.equal((await screenshot(name, DEMO_CREDENTIALS.phoneOther)).status, 401);
    const grant = await axl(
      lab,
      'updateUser',
      `<userid>mlee</userid><associatedDevices><device>SEP0A1B2C3D4E03</device><device>${name}</device></associatedDevices>`,
    );
    assert.equal(grant.status, 200, grant.text);
    assert.equal((await screenshot(name, DEMO_CREDENTIALS.phoneOther)).status, 200);
  });
});
