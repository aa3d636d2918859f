// A node's file before it is kept, as hostile input: gzip and zip bombs refused with PAYLOAD_TOO_LARGE
// after at most the cap was produced (never expanded unbounded), zip entries whose declared sizes lie,
// archives cut short; names from the node reduced to plain file names; GetOneFile's attachment found by
// its reference and refused when missing, broken, cut short or over the cap.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { swaAnswer } from '../../../../lab/serviceability/attachments.ts';
import { PayloadTooLargeError, ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import { readAnswer } from '../../../../plugins/_shared/serviceability/answer.ts';
import type { SoapCall } from '../../../../plugins/_shared/serviceability/client.ts';
import { checkContent, keptName } from '../../../../plugins/_shared/serviceability/logs/content.ts';
import { GET_FILE_API, getOneFile } from '../../../../plugins/_shared/serviceability/logs/get-file.ts';

const LIMITS = { maxExpandedBytes: 4 * 1024 * 1024, maxRatio: 200, maxZipEntries: 4 };

/** A zip archive of `entries` (deflated), with `declare` overriding the size each entry declares. */
function zip(entries: { name: string; data: Buffer; declare?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const packed = deflateRawSync(e.data);
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.declare ?? e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.declare ?? e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const bomb = (err: unknown): boolean =>
  err instanceof PayloadTooLargeError && /decompression bomb/.test(err.message);

describe('log file content', () => {
  it('expands a gzip trace; refuses a gzip bomb without expanding it whole', () => {
    const trace = gzipSync('00001 |CallManager|SdlSig|\n'.repeat(100));
    const ok = checkContent(trace, 'SDL001_100_000001.txt.gz', LIMITS);
    assert.equal(ok.kind === 'gzip' && ok.expanded.toString().split('\n').length, 101);
    // 64 MiB of zeros compress to about 64 KiB: a ratio of 1000 and beyond the 4 MiB cap.
    const zeros = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const before = process.memoryUsage().arrayBuffers;
    assert.throws(() => checkContent(zeros, 'evil.txt.gz', LIMITS), bomb);
    assert.ok(process.memoryUsage().arrayBuffers - before < 32 * 1024 * 1024, 'it stopped at the cap');
    // The ratio alone refuses too: a small file that grows 1000 times.
    assert.throws(() => checkContent(gzipSync(Buffer.alloc(2 * 1024 * 1024)), 'r.gz', LIMITS), bomb);
    assert.throws(
      () => checkContent(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), 'cut.gz', LIMITS),
      (err: unknown) => err instanceof ServiceabilityError && /not a valid compressed file/.test(err.message),
    );
  });

  it('reads a zip archive; refuses bombs, too many entries, lying sizes and a cut-short archive', () => {
    const good = zip([{ name: 'a.txt', data: Buffer.from('hello\n') }]);
    assert.deepEqual(checkContent(good, 'a.zip', LIMITS), { kind: 'zip', entries: 1, expandedBytes: 6 });
    assert.throws(
      () => checkContent(zip([{ name: 'z', data: Buffer.alloc(8 * 1024 * 1024) }]), 'z.zip', LIMITS),
      bomb,
    );
    // The entry says 10 bytes but holds 8 MiB: the cap is the whole's, whatever the entry declares.
    assert.throws(
      () =>
        checkContent(zip([{ name: 'z', data: Buffer.alloc(8 * 1024 * 1024), declare: 10 }]), 'l.zip', LIMITS),
      bomb,
    );
    const many = zip(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: Buffer.from('x') })));
    assert.throws(() => checkContent(many, 'm.zip', LIMITS), /5 entries/);
    const lying = zip([{ name: 'a', data: Buffer.from('hello'), declare: 3 }]);
    assert.throws(() => checkContent(lying, 'x.zip', LIMITS), /not the size it declares/);
    const cut = good.subarray(0, 20);
    assert.throws(
      () => checkContent(cut, 'c.zip', LIMITS),
      (err: unknown) => err instanceof ServiceabilityError,
    );
  });

  it('keeps names from the node as plain file names only', () => {
    assert.equal(
      keptName('/var/log/active/cm/trace/ccm/sdl/SDL001_100_000123.txt.gz', 'f'),
      'SDL001_100_000123.txt.gz',
    );
    assert.equal(keptName('/var/log/x/../../etc/passwd', 'f'), 'passwd');
    assert.equal(keptName('/var/log/..', 'f'), 'f');
    assert.equal(keptName('C:\\logs\\a b;rm -rf.txt', 'f'), 'a_b_rm_-rf.txt');
    assert.equal(keptName('/var/log/.hidden', 'f'), 'hidden');
    assert.equal(keptName('/var/log/\u0000\u202e', 'f'), '__');
  });
});

describe('GetOneFile answers', () => {
  const ENV = (ret: string): string =>
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns1:GetOneFileResponse xmlns:ns1="http://schemas.cisco.com/ast/soap/">${ret}</ns1:GetOneFileResponse></soapenv:Body></soapenv:Envelope>`;

  /** A call answering `contentType`/`body` the way the client does: onAnswer, then readAnswer. */
  const answering = (contentType: string, body: Buffer) => (c: SoapCall) => {
    const answer = { status: 200, headers: { 'content-type': contentType }, body };
    if (c.maxAnswerBytes !== undefined && body.length > c.maxAnswerBytes)
      return Promise.reject(new ServiceabilityError(`sent more than ${c.maxAnswerBytes} bytes; refused`));
    c.onAnswer?.(answer);
    return Promise.resolve(
      readAnswer(answer, { api: GET_FILE_API, operation: 'GetOneFile', where: 'pub', arrays: new Set() }),
    );
  };

  it('takes the part the envelope names, bytes intact', async () => {
    const data = Buffer.from([0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0xff]);
    const a = swaAnswer(ENV('<GetOneFileReturn href="cid:F1"/>'), 'F1', data);
    assert.deepEqual(await getOneFile(answering(a.contentType, a.body), '/var/log/a', 1024, 'pub'), data);
  });

  it('refuses a reference to no part, a cut-short answer, a plain answer, and a file over the cap', async () => {
    const a = swaAnswer(ENV('<GetOneFileReturn href="cid:OTHER"/>'), 'F1', Buffer.from('x'));
    await assert.rejects(
      getOneFile(answering(a.contentType, a.body), '/var/log/a', 1024, 'pub'),
      /cid:OTHER names none/,
    );
    const full = swaAnswer(ENV('<GetOneFileReturn href="cid:F1"/>'), 'F1', Buffer.alloc(500, 0x41));
    const cut = full.body.subarray(0, full.body.length - 300);
    await assert.rejects(
      getOneFile(answering(full.contentType, cut), '/var/log/a', 1024, 'pub'),
      /broken MIME answer.*cut short/,
    );
    await assert.rejects(
      getOneFile(answering('text/xml', Buffer.from(ENV('<GetOneFileReturn/>'))), '/var/log/a', 1024, 'pub'),
      /without an attachment/,
    );
    await assert.rejects(
      getOneFile(answering(full.contentType, full.body), '/var/log/a', 100, 'pub'),
      (err: unknown) =>
        err instanceof PayloadTooLargeError &&
        /500 bytes, more than max_file_bytes \(100\)/.test(err.message),
    );
    const huge = swaAnswer(ENV('<GetOneFileReturn href="cid:F1"/>'), 'F1', Buffer.alloc(200 * 1024));
    await assert.rejects(
      getOneFile(answering(huge.contentType, huge.body), '/var/log/a', 1024, 'pub'),
      /sent more than/,
    );
    const dime = answering('application/dime', Buffer.from([0x0c, 0, 0, 0]));
    await assert.rejects(getOneFile(dime, '/var/log/a', 1024, 'pub'), /not SOAP/);
  });
});
