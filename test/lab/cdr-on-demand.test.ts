// The lab's CDR repository and its CDRonDemandService get_file_list: files named as the CDR guide names
// them for every minute with traffic, the API's limits (YYYYMMDDHHMM, end after start, one hour at most,
// 1300 names per answer) and in2 false for the files that failed to reach the billing servers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CdrRepository, cdrDateTime, cdrMinute } from '../../lab/cucm/cdr/repository.ts';
import { CDR_MAX_FILES, cdrOnDemandService } from '../../lab/serviceability/cdr/service.ts';
import { SoapFault } from '../../lab/serviceability/service.ts';
import type { XmlObject } from '../../lab/xml/parse.ts';
import { parseXml, stripPrefixes } from '../../lab/xml/parse.ts';
import type { XmlOutObject } from '../../lab/xml/write.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0);
const PHONES = [
  { name: 'SEP0A1B2C3D4E01', dn: '1001' },
  { name: 'SEP0A1B2C3D4E02', dn: '1002' },
  { name: 'SEP0A1B2C3D4E03', dn: '1003' },
];
const repo = (): CdrRepository =>
  new CdrRepository({
    clusterId: 'StandAloneCluster',
    nodes: ['cucm-pub', 'cucm-sub'],
    phones: PHONES,
    salt: 7,
    startedAt: NOW,
    now: () => NOW,
  });

function list(r: CdrRepository, from: string, to: string, all = 'true'): string[] | null {
  const def = cdrOnDemandService({ repository: r, perMinute: () => 10, pushPort: () => 22 });
  const body = stripPrefixes(
    parseXml(`<x><in0>${from}</in0><in1>${to}</in1><in2>${all}</in2></x>`),
  ) as XmlObject;
  const out = def.operations.get_file_list?.({
    node: 'cucm-pub',
    user: 'axl',
    body: body.x as XmlObject,
  }) as XmlOutObject;
  const ret = (out as XmlOutObject).get_file_listReturn as XmlOutObject | null;
  return ret === null ? null : (ret.FileName as string[]);
}

function fault(r: CdrRepository, from: string, to: string, all = 'true'): string {
  try {
    list(r, from, to, all);
  } catch (err) {
    assert.ok(err instanceof SoapFault);
    return err.faultstring;
  }
  assert.fail('no fault');
}

describe('lab CDR repository and get_file_list', () => {
  it('names files tag_clusterId_nodeId_datetime_seq, UTC, for the minutes with traffic', () => {
    const names = list(repo(), '202611261000', '202611261100') ?? [];
    assert.ok(names.length > 40, `${names.length} files in an hour`);
    // Both ends included: the files of 10:00 to 11:00.
    for (const n of names)
      assert.match(n, /^(cdr|cmr)_StandAloneCluster_0[12]_(2026112610\d{2}|202611261100)_\d+$/);
    assert.equal(
      names.filter((n) => n.startsWith('cdr_')).length,
      names.filter((n) => n.startsWith('cmr_')).length,
    );
    assert.deepEqual(list(repo(), '202611261000', '202611261100'), names, 'the same files every time');
    assert.equal(cdrDateTime(cdrMinute('202611261000') as number), '202611261000');
    assert.equal(cdrMinute('202613011000'), undefined);
  });

  it('in2 false lists only the files that failed to reach the billing servers', () => {
    const all = list(repo(), '202611260800', '202611260900') ?? [];
    const failed = list(repo(), '202611260800', '202611260900', 'false') ?? [];
    assert.ok(failed.length > 0 && failed.length < all.length / 4);
    assert.ok(failed.every((n) => all.includes(n)));
  });

  it('the future, and minutes before the history, have no files: the answer is null', () => {
    assert.equal(list(repo(), '202611261300', '202611261400'), null);
    assert.equal(list(repo(), '202601011000', '202601011100'), null);
  });

  it('refuses a bad format, an end before the start and more than one hour', () => {
    assert.match(fault(repo(), '2026112610', '202611261100'), /YYYYMMDDHHMM/);
    assert.match(fault(repo(), '202611261100', '202611261000'), /before the end/);
    assert.match(fault(repo(), '202611261000', '202611261101'), /cannot span over 1 hour/);
    assert.match(fault(repo(), '202611261000', '202611261100', 'maybe'), /in2/);
  });

  it('answers at most 1300 names, oldest first', () => {
    const r = repo();
    const minute = cdrMinute('202611261130') as number;
    for (let i = 0; i < 1400; i++)
      r.add({
        name: `cdr_StandAloneCluster_01_202611261130_${900000 + i}`,
        kind: 'cdr',
        minute,
        node: 'cucm-pub',
        sent: true,
      });
    const names = list(r, '202611261100', '202611261200') ?? [];
    assert.equal(names.length, CDR_MAX_FILES);
    assert.ok(names.indexOf('cdr_StandAloneCluster_01_202611261130_900000') >= 0);
  });

  it('get_file pushes to loopback hosts only, by SFTP only, and only files the repository holds', async () => {
    const def = cdrOnDemandService({ repository: repo(), perMinute: () => 10, pushPort: () => 9 });
    const name = (list(repo(), '202611261000', '202611261100') ?? [])[0] as string;
    const get = (host: string, file: string, secure = 'true') =>
      Promise.resolve(
        def.operations.get_file?.({
          node: 'cucm-pub',
          user: 'axl',
          body: (
            stripPrefixes(
              parseXml(
                `<x><in0>${host}</in0><in1>u</in1><in2>p</in2><in3>/cdr</in3><in4>${file}</in4><in5>${secure}</in5></x>`,
              ),
            ) as XmlObject
          ).x as XmlObject,
        }),
      );
    await assert.rejects(get('192.0.2.10', name), /loopback addresses only/);
    await assert.rejects(get('billing.example.com', name), /loopback addresses only/);
    await assert.rejects(get('127.0.0.1', name, 'false'), /SFTP only/);
    await assert.rejects(get('127.0.0.1', 'cdr_StandAloneCluster_01_202601011000_1'), /not found/);
    // Port 9 on loopback: nothing listens, so the push itself fails, as a fault.
    await assert.rejects(get('127.0.0.1', name), /SFTP transfer of .* failed/);
  });
});
