// CDR on Demand listing without a node: the API's minutes, spans cut into one-hour windows, file names
// read back (and hostile ones left out), full answers continued from their last file's time, the "no
// files" fault read as an empty window, and the bounds on requests and files.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { XmlNode } from '../../../plugins/_shared/node/xml-text.ts';
import { SoapFaultError } from '../../../plugins/_shared/serviceability/answer.ts';
import type { SoapCall } from '../../../plugins/_shared/serviceability/client.ts';
import { listFiles } from '../../../plugins/_shared/serviceability/cdr/files.ts';
import {
  cdrTime,
  parseCdrTime,
  parseFileName,
  windowsOf,
} from '../../../plugins/_shared/serviceability/cdr/times.ts';

const M = (t: string): number => parseCdrTime(t) as number;

/** A node answering from a list of names (1300 at most per answer, [from, to] inclusive). */
function node(names: string[], log: string[][] = []) {
  return async (c: SoapCall): Promise<XmlNode> => {
    const f = c.fields as { in0: string; in1: string; in2: boolean };
    log.push([f.in0, f.in1]);
    const from = M(f.in0);
    const to = M(f.in1);
    const hits = names.filter((n) => {
      const p = parseFileName(n);
      return p.minute === undefined || (p.minute >= from && p.minute <= to);
    });
    return Promise.resolve(
      hits.length ? { get_file_listReturn: { FileName: hits.slice(0, 1300) } } : { get_file_listReturn: {} },
    );
  };
}

const opts = { includeSent: true, maxFiles: 10_000, maxRequests: 10 };

describe('CDR on Demand listing', () => {
  it('reads the API minutes in UTC and refuses unreal ones', () => {
    assert.equal(cdrTime(M('202611260705')), '202611260705');
    assert.equal(new Date(M('202611260705') * 60_000).toISOString(), '2026-11-26T07:05:00.000Z');
    assert.equal(parseCdrTime('202602300000'), undefined);
    assert.equal(parseCdrTime('20261126070'), undefined);
  });

  it('cuts a span into windows of at most one hour', () => {
    const w = windowsOf(M('202611260000'), M('202611260230'));
    assert.deepEqual(
      w.map((x) => [cdrTime(x.from), cdrTime(x.to)]),
      [
        ['202611260000', '202611260100'],
        ['202611260100', '202611260200'],
        ['202611260200', '202611260230'],
      ],
    );
  });

  it('reads file names into their parts; a cluster id with underscores too', () => {
    assert.deepEqual(parseFileName('cmr_Cluster1_02_200404061011_6125'), {
      name: 'cmr_Cluster1_02_200404061011_6125',
      kind: 'cmr',
      cluster_id: 'Cluster1',
      node_id: '02',
      time: '2004-04-06T10:11Z',
      minute: M('200404061011'),
      sequence: 6125,
    });
    assert.equal(parseFileName('cdr_My_Cluster_01_202611260700_9').cluster_id, 'My_Cluster');
    assert.deepEqual(parseFileName('cdr_x_01_202613260700_9'), {
      name: 'cdr_x_01_202613260700_9',
      kind: 'other',
    });
  });

  it('one request per window, boundary files once', async () => {
    const log: string[][] = [];
    const names = [
      'cdr_C_01_202611260030_1',
      'cdr_C_01_202611260100_2',
      'cmr_C_01_202611260100_2',
      'cdr_C_02_202611260159_3',
    ];
    const r = await listFiles(node(names, log), { from: M('202611260000'), to: M('202611260200') }, opts);
    assert.deepEqual(log, [
      ['202611260000', '202611260100'],
      ['202611260100', '202611260200'],
    ]);
    assert.deepEqual(
      r.files.map((f) => f.name),
      names,
    );
    assert.equal(r.complete, true);
    assert.equal(r.requests, 2);
  });

  it('a full answer (1300 names) is asked again from its last file time', async () => {
    const names = [
      ...Array.from(
        { length: 1300 },
        (_, i) => `cdr_C_01_2026112600${String(Math.floor(i / 50)).padStart(2, '0')}_${i}`,
      ),
      ...Array.from({ length: 200 }, (_, i) => `cdr_C_01_202611260050_${5000 + i}`),
    ];
    const log: string[][] = [];
    const r = await listFiles(node(names, log), { from: M('202611260000'), to: M('202611260100') }, opts);
    assert.equal(r.files.length, 1500);
    assert.deepEqual(
      log.map((l) => l[0]),
      ['202611260000', '202611260025'],
    );
    assert.equal(r.complete, true);
  });

  it('1300 names in one minute cannot be continued: said so, not looped', async () => {
    const names = Array.from({ length: 1400 }, (_, i) => `cdr_C_01_202611260010_${i}`);
    const r = await listFiles(node(names), { from: M('202611260010'), to: M('202611260100') }, opts);
    assert.equal(r.complete, false);
    assert.match(r.stopped_because ?? '', /1300 names for 2026-11-26T00:10Z alone/);
    assert.equal(r.requests, 1);
  });

  it('stops at max_files and max_requests with the reason', async () => {
    const names = Array.from(
      { length: 30 },
      (_, i) => `cdr_C_01_2026112600${String(i).padStart(2, '0')}_${i}`,
    );
    const few = await listFiles(
      node(names),
      { from: M('202611260000'), to: M('202611260100') },
      { ...opts, maxFiles: 10 },
    );
    assert.equal(few.files.length, 10);
    assert.match(few.stopped_because ?? '', /^max_files/);
    const short = await listFiles(
      node([]),
      { from: M('202611260000'), to: M('202611260600') },
      { ...opts, maxRequests: 3 },
    );
    assert.equal(short.requests, 3);
    assert.match(short.stopped_because ?? '', /^max_requests: .* from 2026-11-26T03:00Z/);
  });

  it('names that are not file names (markup, controls, very long) are left out and counted', async () => {
    const hostile = [
      '<b>x</b>',
      'a\u0007b',
      'x'.repeat(300),
      'cdr_C_01_202611260001_1',
      { '#text': 'cmr_C_01_202611260001_1' },
    ];
    const send = async (): Promise<XmlNode> =>
      Promise.resolve({ get_file_listReturn: { FileName: hostile } });
    const r = await listFiles(send, { from: M('202611260000'), to: M('202611260100') }, opts);
    assert.deepEqual(
      r.files.map((f) => f.name),
      ['cdr_C_01_202611260001_1', 'cmr_C_01_202611260001_1'],
    );
    assert.equal(r.unreadable_names, 3);
  });

  it('the "no files" fault is an empty window; any other fault is the error', async () => {
    const none = async (): Promise<XmlNode> =>
      Promise.reject(new SoapFaultError('fault', 'soapenv:Server', 'No files exist in the CDR Repository'));
    const r = await listFiles(none, { from: M('202611260000'), to: M('202611260100') }, opts);
    assert.deepEqual([r.files, r.complete], [[], true]);
    const other = async (): Promise<XmlNode> =>
      Promise.reject(
        new SoapFaultError('fault x', 'soapenv:Server', 'The servlet is in its maintenance window'),
      );
    await assert.rejects(
      listFiles(other, { from: M('202611260000'), to: M('202611260100') }, opts),
      /fault x/,
    );
  });
});
