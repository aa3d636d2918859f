// Log Collection's answers read as untrusted input: MIME multipart/related (Axis2 MTOM, Axis 1 SOAP with
// Attachments) with hostile shapes (no boundary, a lying Content-Length, a cut-short answer, too many
// parts, a start naming no part), the list and file answers bounded and cleaned, the request's dates in
// London's wall clock and the MTOM answer turned into the operation's element by readAnswer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mtomAnswer, swaAnswer } from '../../../../lab/serviceability/attachments.ts';
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import { readAnswer } from '../../../../plugins/_shared/serviceability/answer.ts';
import {
  LOG_COLLECTION_API,
  selectLogFilesFields,
  wallDate,
} from '../../../../plugins/_shared/serviceability/logs/api.ts';
import {
  isoOfJavaDate,
  plainName,
  readNodeServiceLogs,
  readSelectedLogs,
} from '../../../../plugins/_shared/serviceability/logs/answers.ts';
import {
  MultipartError,
  parseMultipart,
  partByReference,
} from '../../../../plugins/_shared/serviceability/multipart.ts';

const ENV = (inner: string): string =>
  `<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${inner}</soapenv:Body></soapenv:Envelope>`;

function read(contentType: string, body: Buffer, operation: string) {
  return readAnswer(
    { status: 200, headers: { 'content-type': contentType }, body },
    {
      api: LOG_COLLECTION_API,
      operation,
      where: 'cucm-pub:8443',
      arrays: new Set(['listNodeServiceLogsReturn', 'item', 'ServiceLogs', 'File']),
    },
  );
}

describe('multipart answers', () => {
  it('reads an Axis2 MTOM answer as the envelope it holds', () => {
    const a = mtomAnswer(
      ENV(
        '<ns1:listNodeServiceLogsResponse xmlns:ns1="x"><ns1:listNodeServiceLogsReturn><ns1:name>pub</ns1:name><ns1:ServiceLog><ns1:item>Cisco Tftp</ns1:item></ns1:ServiceLog></ns1:listNodeServiceLogsReturn></ns1:listNodeServiceLogsResponse>',
      ),
    );
    const response = read(a.contentType, a.body, 'listNodeServiceLogs');
    assert.deepEqual(readNodeServiceLogs(response, 'pub'), [
      { node: 'pub', service_logs: ['Cisco Tftp'], system_logs: [] },
    ]);
  });

  it('finds an Axis 1 attachment by the href of its Content-Id, bytes intact', () => {
    const data = Buffer.from([0x1f, 0x8b, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff]);
    const a = swaAnswer(
      ENV('<ns1:GetOneFileResponse><GetOneFileReturn href="cid:ABC"/></ns1:GetOneFileResponse>'),
      'ABC',
      data,
    );
    const parsed = parseMultipart(a.body, a.contentType);
    assert.match(parsed.root.body.toString('utf8'), /GetOneFileReturn href="cid:ABC"/);
    assert.deepEqual(partByReference(parsed, 'cid:ABC')?.body, data);
    assert.equal(partByReference(parsed, 'cid:%E0%A4%A'), undefined, 'a malformed reference names nothing');
  });

  const TYPE = 'multipart/related; type="text/xml"; boundary="b1"';
  const part = (headers: string, content: string): string => `--b1\r\n${headers}\r\n\r\n${content}\r\n`;

  it('refuses hostile shapes with MultipartError', () => {
    const cases: [string, string, string | Buffer, RegExp][] = [
      ['no boundary', 'multipart/related', 'x', /no valid boundary/],
      ['a boundary outside its alphabet', 'multipart/related; boundary="a\u0000b"', 'x', /no valid boundary/],
      [
        'a lying Content-Length',
        TYPE,
        `${part('Content-Length: 999', 'short')}--b1--\r\n`,
        /declares Content-Length 999 but carries 5 bytes/,
      ],
      [
        'a length that is not a number',
        TYPE,
        `${part('Content-Length: -1', 'x')}--b1--\r\n`,
        /declares Content-Length -1/,
      ],
      [
        'cut short in a part',
        TYPE,
        `--b1\r\nContent-Type: text/xml\r\n\r\n<a>partial`,
        /no closing delimiter/,
      ],
      ['cut short in the headers', TYPE, `--b1\r\nContent-Type: te`, /inside a part header/],
      ['cut short after a delimiter', TYPE, `${part('A: b', 'x')}--b1`, /inside a delimiter line/],
      [
        'too many parts',
        TYPE,
        `${Array.from({ length: 9 }, () => part('A: b', 'x')).join('')}--b1--\r\n`,
        /more than 8 parts/,
      ],
      [
        'a header block without end',
        TYPE,
        `--b1\r\nX: ${'a'.repeat(9000)}\r\n\r\nx\r\n--b1--\r\n`,
        /longer than 8192 bytes/,
      ],
      [
        'a start naming no part',
        `${TYPE}; start="<nope>"`,
        `${part('Content-Id: <a>', 'x')}--b1--\r\n`,
        /start parameter/,
      ],
      ['no part at all', TYPE, 'nothing here', /has no part/],
    ];
    for (const [what, type, body, message] of cases)
      assert.throws(
        () => parseMultipart(Buffer.from(body), type),
        (err: unknown) => err instanceof MultipartError && message.test(err.message),
        what,
      );
  });

  it('a broken multipart answer is a ServiceabilityError naming the service', () => {
    assert.throws(
      () =>
        read(
          'multipart/related; boundary=zz',
          Buffer.from('--zz\r\nContent-Type: text/xml\r\n\r\n<a/>'),
          'listNodeServiceLogs',
        ),
      (err: unknown) =>
        err instanceof ServiceabilityError &&
        /LogCollectionPortTypeService on cucm-pub:8443 .*cut short/.test(err.message),
    );
  });
});

describe('Log Collection answers', () => {
  const selected = (files: string): string =>
    `<ResultSet><SchemaFileSelectionResult><Node><name>pub</name><ServiceList><ServiceLogs><name>Cisco CallManager</name><SetOfFiles>${files}</SetOfFiles></ServiceLogs></ServiceList></Node></SchemaFileSelectionResult></ResultSet>`;

  it('reads files: sizes as numbers, dates as ISO when the node wrote UTC, names never paths', () => {
    const a = mtomAnswer(
      ENV(
        `<ns1:selectLogFilesResponse xmlns:ns1="x">${selected(
          '<File><name>SDL001_100_000001.txt.gz</name><absolutepath>/var/log/active/cm/trace/ccm/sdl/SDL001_100_000001.txt.gz</absolutepath><filesize>1234</filesize><modifiedDate>Thu Nov 26 07:12:02 UTC 2026</modifiedDate></File>' +
            '<File><name>../../etc/passwd</name><absolutepath>/var/log/active/x/evil.txt</absolutepath><filesize>lots</filesize><modifiedDate>Thu Nov 26 07:12:02 IST 2026</modifiedDate></File>' +
            '<File><name>nopath</name><absolutepath></absolutepath></File>',
        )}</ns1:selectLogFilesResponse>`,
      ),
    );
    const r = readSelectedLogs(read(a.contentType, a.body, 'selectLogFiles'), 'pub');
    assert.deepEqual(r.logs[0]?.files, [
      {
        name: 'SDL001_100_000001.txt.gz',
        path: '/var/log/active/cm/trace/ccm/sdl/SDL001_100_000001.txt.gz',
        size: 1234,
        modified: 'Thu Nov 26 07:12:02 UTC 2026',
        modified_at: '2026-11-26T07:12:02.000Z',
      },
      {
        name: 'evil.txt',
        path: '/var/log/active/x/evil.txt',
        size: null,
        modified: 'Thu Nov 26 07:12:02 IST 2026',
        modified_at: null,
      },
    ]);
    assert.equal(plainName('..'), null);
    assert.equal(plainName('a\\b'), null);
    assert.equal(isoOfJavaDate('Thu Feb 30 07:12:02 UTC 2026'), null);
  });

  it('an answer without its elements is a ServiceabilityError', () => {
    assert.throws(() => readSelectedLogs({}, 'pub'), ServiceabilityError);
    assert.throws(() => readNodeServiceLogs({}, 'pub'), ServiceabilityError);
  });

  it('sends the window on London wall time, every criterion in the WSDL order', () => {
    assert.equal(wallDate(new Date('2026-07-01T00:05:00Z')), '07/01/26 01:05 AM');
    assert.equal(wallDate(new Date('2026-11-26T12:30:00Z')), '11/26/26 12:30 PM');
    const f = selectLogFilesFields(
      ['Cisco CallManager'],
      [],
      new Date('2026-11-26T11:00:00Z'),
      new Date('2026-11-26T12:00:00Z'),
    );
    assert.deepEqual(Object.keys(f.FileSelectionCriteria as object), [
      'ServiceLogs',
      'SystemLogs',
      'SearchStr',
      'Frequency',
      'JobType',
      'ToDate',
      'FromDate',
      'TimeZone',
      'RelText',
      'RelTime',
      'Port',
      'IPAddress',
      'UserName',
      'Password',
      'ZipInfo',
      'RemoteFolder',
    ]);
  });
});
