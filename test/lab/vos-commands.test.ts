// The VOS CLI commands administrators and the audits run, on each product, against the lab's own state.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab } from '../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode } from '../../lab/index.ts';
import { startTestLab } from './helpers.ts';
import type { CliSession } from './ssh-client.ts';
import { openCli } from './ssh-client.ts';

/** A pattern for output that ends with `text` (escapes and all). */
function endsWith(text: string): RegExp {
  return new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** A command's output as lines, CR removed. */
function lines(out: string): string[] {
  return out
    .replace(/\r/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '');
}

describe('VOS CLI commands with real output shapes', () => {
  let lab: Lab;
  let hardened: Lab;
  const clis: CliSession[] = [];
  const open = async (l: Lab, product: 'cucm' | 'imp' | 'cuc'): Promise<CliSession> => {
    const cli = await openCli(
      labNode(l.info, product).ports.ssh as number,
      DEMO_CREDENTIALS.os.user,
      DEMO_CREDENTIALS.os.password,
      { rows: 24 },
    );
    clis.push(cli);
    await cli.run('set cli pagination off');
    return cli;
  };
  let cucm: CliSession;
  let imp: CliSession;
  let cuc: CliSession;
  before(async () => {
    lab = await startTestLab();
    hardened = await startTestLab({ profile: 'hardened' });
    [cucm, imp, cuc] = await Promise.all([open(lab, 'cucm'), open(lab, 'imp'), open(lab, 'cuc')]);
  });
  after(async () => {
    for (const c of clis) c.close();
    await Promise.all([lab.stop(), hardened.stop()]);
  });

  it('show hardware describes the virtual machine', async () => {
    for (const cli of [cucm, imp, cuc]) {
      const out = await cli.run('show hardware');
      assert.match(out, /^HW Platform {7}: VMware Virtual Machine$/m);
      assert.match(out, /^Processors {8}: 2$/m);
      assert.match(out, /^Memory {12}: 8192 MBytes$/m);
      assert.match(out, /^Size \(in GB\) {3}: 110$/m);
    }
  });

  it('show network cluster lists the topology: the RIS nodes and IM&P on CUCM, the publisher last', async () => {
    const rows = lines(await cucm.run('show network cluster'));
    const nodeRows = rows.filter((l) => /^\d+\.\d+\.\d+\.\d+ /.test(l));
    const names = nodeRows.map((l) => l.split(' ')[2]);
    assert.deepEqual(
      [...names].sort(),
      [...lab.state.cucm.ris.nodes, 'imp-pub'].sort(),
      'every CallManager node RIS knows, and the IM&P node',
    );
    assert.match(
      nodeRows.at(-1) ?? '',
      /^10\.10\.20\.1 cucm-pub\.lab\.example\.com cucm-pub Publisher callmanager DBPub authenticated$/,
    );
    assert.match(
      rows.join('\n'),
      /cucm-sub1 Subscriber callmanager DBSub authenticated using TCP since \w{3} \w{3} \d\d /,
    );
    assert.match(rows.join('\n'), /imp-pub Subscriber cups DBPub authenticated using TCP since/);
    assert.deepEqual(rows.slice(rows.indexOf('Server Table (processnode) Entries') + 2), [
      'cucm-pub',
      '10.10.20.2',
    ]);

    const fromImp = lines(await imp.run('show network cluster'));
    assert.ok(
      fromImp.some((l) =>
        /^10\.10\.20\.5 imp-pub\.lab\.example\.com imp-pub Subscriber cups DBPub authenticated$/.test(l),
      ),
    );
    assert.ok(
      !fromImp.includes('Server Table (processnode) Entries'),
      'only the publisher shows processnode',
    );
    assert.deepEqual(lines(await cuc.run('show network cluster')), [
      '10.10.20.8 cuc-pub.lab.example.com cuc-pub Publisher cuc DBPub authenticated',
      'Server Table (processnode) Entries',
      '----------------------------------',
      'cuc-pub',
    ]);
  });

  it('utils dbreplication runtimestate lists the CallManager nodes of the topology', async () => {
    const out = await cucm.run('utils dbreplication runtimestate');
    const servers = lines(out)
      .filter((l) => /Setup Completed$/.test(l))
      .map((l) => l.split(/\s+/)[0]);
    assert.deepEqual(servers, lab.state.cucm.ris.nodes);
    assert.match(out, new RegExp(`Cluster Detailed View from cucm-pub \\(${servers.length} Servers\\)`));
  });

  it('utils core active list: the weak publisher has a CallManager core, the others none', async () => {
    const out = lines(await cucm.run('utils core active list'));
    assert.deepEqual(out.slice(0, 2), [
      'Size         Date            Core File Name',
      '===============================================',
    ]);
    assert.match(out[2] ?? '', /^\d+ KB +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {3}core\.\d+\.\d+\.ccm\.\d+$/);
    assert.deepEqual(lines(await imp.run('utils core active list')), ['No core files found']);
  });

  it('show perf query class and counter print perfmon values in the CLI layout', async () => {
    const memory = lines(await cucm.run('show perf query class Memory'));
    assert.equal(memory[0], '==>query class :');
    assert.equal(memory[1], ' - Perf class (Memory) has instances and values:');
    assert.equal(memory[2], '                    -> % Mem Used                     = 96');
    const repl = await imp.run(
      'show perf query class "Number of Replicates Created and State of Replication"',
    );
    assert.match(repl, /^ {4}ReplicateCount {2}-> Replicate_State {16}= 2$/m);
    // The counter agrees with RIS: the phones registered to this node.
    const registered = [...lab.state.cucm.ris.registrations]
      .filter(([name]) => name.startsWith('SEP'))
      .flatMap(([, r]) => r)
      .filter((r) => r.node === 'cucm-pub' && r.status === 'Registered').length;
    const counter = await cucm.run('show perf query counter "Cisco CallManager" RegisteredHardwarePhones');
    assert.match(counter, /^ - Perf class Cisco CallManager\(RegisteredHardwarePhones\) has values:$/m);
    assert.match(counter, new RegExp(`-> RegisteredHardwarePhones {7}= ${registered}$`, 'm'));
    assert.match(
      await imp.run('show perf query counter "Cisco Presence Engine" ActiveJsmSessions'),
      /ActiveJsmSessions {14}= \d+/,
    );
    assert.match(
      await cucm.run('show perf query class Nonsense'),
      /Invalid class name: Nonsense\r\nExecuted command unsuccessfully/,
    );
  });

  it('utils disaster_recovery history backup agrees with the DRF logs `file list` shows', async () => {
    const cli = await open(hardened, 'cucm');
    const history = lines(await cli.run('utils disaster_recovery history backup'));
    assert.match(
      history[0] ?? '',
      /^Tar Filename: +Backup Device: +Completed On: +Result: +Backup Type: +Features Backed Up:$/,
    );
    const rows = history.slice(1).map((l) => l.split(/\s+/));
    assert.equal(rows.length, 7, 'a backup each of the last seven nights');
    for (const r of rows) {
      assert.match(r[0] ?? '', /^\d{4}-\d\d-\d\d-02-00-00\.tar$/);
      assert.equal(r[1], 'BACKUP_SFTP');
      assert.match(
        `${r[2]} ${r[3]} ${r[4]} ${r[5]} ${r[6]} ${r[7]}`,
        /^\w{3} \w{3} \d\d 02:07:55 UTC \d{4}$/,
      );
      assert.equal(r[8], 'SUCCESS');
    }
    const listed = await cli.run('file list activelog platform/drf/log');
    const stamps = new Set(
      [...listed.matchAll(/(\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)_b_/g)].map((m) => `${m[1]}.tar`),
    );
    assert.deepEqual(new Set(rows.map((r) => r[0])), stamps);
    // The weak cluster never set a backup up: the history is empty.
    assert.equal(lines(await cucm.run('utils disaster_recovery history backup')).length, 1);
    assert.match(
      await cucm.run('utils disaster_recovery history'),
      /Usage: utils disaster_recovery history backup\|restore\r\nExecuted command unsuccessfully/,
    );
  });

  it('a failed DRS run shows as ERROR in the history and left its log: IM&P and Unity Connection weak labs', async () => {
    const rowsOf = async (cli: CliSession) =>
      lines(await cli.run('utils disaster_recovery history backup'))
        .slice(1)
        .map((l) => l.split(/\s+/));
    const stampsOf = async (cli: CliSession) =>
      new Set(
        [...(await cli.run('file list activelog platform/drf/log')).matchAll(/(\d{4}(?:-\d\d){5})_b_/g)].map(
          (m) => `${m[1]}.tar`,
        ),
      );
    // IM&P: one manual backup 97 days ago, then three scheduled nightly runs that failed.
    const impRows = await rowsOf(imp);
    assert.deepEqual(
      impRows.map((r) => `${r[8]} ${r[9]}`),
      ['SUCCESS MANUAL', 'ERROR SCHEDULED', 'ERROR SCHEDULED', 'ERROR SCHEDULED'],
    );
    assert.equal(impRows[0]?.[10], 'CUP,');
    assert.equal(impRows[1]?.[10], undefined, 'a failed run lists no feature');
    assert.deepEqual(new Set(impRows.map((r) => r[0])), await stampsOf(imp));
    // Unity Connection: the last successful backup 45 days ago, a manual one two days ago failed.
    const cucRows = await rowsOf(cuc);
    assert.deepEqual(
      cucRows.map((r) => `${r[8]} ${r[9]}`),
      ['SUCCESS SCHEDULED', 'ERROR MANUAL'],
    );
    assert.deepEqual(new Set(cucRows.map((r) => r[0])), await stampsOf(cuc));
  });

  it('show risdb query phone lists what RisPort reports', async () => {
    const out = lines(await cucm.run('show risdb query phone'));
    const records = [...lab.state.cucm.ris.registrations.values()].flat().length;
    const rows = out.filter((l) => /^SEP/.test(l));
    assert.ok(rows.length >= 4 && rows.length <= records);
    assert.match(out.join('\n'), /^#Number of records: \d+$/m);
    assert.ok(
      rows.some((r) =>
        /^SEP0A1B2C3D4E03, Mary Lee - 8845, [\d.]+, Cisco 8845, SIP, mlee, Registered, 0, cucm-pub, \d+$/.test(
          r,
        ),
      ),
    );
    assert.match(
      await imp.run('show risdb query phone'),
      /No valid command entered/,
      'only CUCM has a RIS database',
    );
  });

  it('show cert list own and trust; file tail and file get', async () => {
    assert.match(await cucm.run('show cert list own'), /^tomcat\/tomcat\.pem: /m);
    const trust = await cucm.run('show cert list trust');
    assert.match(trust, /^tomcat-trust\/cucm-sub1\.pem: Trust Certificate$/m);
    assert.match(trust, /^CallManager-trust\/cucm-pub\.pem: Trust Certificate$/m);
    const tail = lines(await cucm.run('file tail activelog platform/drf/log/drfMaster.log 3'));
    assert.equal(tail.length, 3);
    assert.match(tail[2] ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO /);
    const from = cucm.output().length;
    cucm.send('file get activelog platform/drf/log/drf*.log\r');
    const asked = await cucm.waitFor(/Would you like to proceed \[y\/n\]\? $/, from);
    assert.match(asked, /Number of files affected: 2\r\n/);
    cucm.send('n\r');
    await cucm.waitFor(/admin:$/, from);
  });

  it('file view and the page option page with the options: question, even with pagination off', async () => {
    const from = cucm.output().length;
    cucm.send('file view activelog platform/drf/log/drfMaster.log\r');
    const question = (a: number, b: number, c: number): string =>
      `\x1b[1m\r\noptions: q=quit, n=next, p=prev, b=begin, e=end (lines ${a} - ${b} of ${c}) : \x1b[0m`;
    const first = await cucm.waitFor(endsWith(question(1, 20, 215)), from);
    assert.equal(lines(first.slice(0, -question(1, 20, 215).length)).length, 1 + 20, 'the echo and 20 lines');
    cucm.send('e');
    await cucm.waitFor(endsWith(`end of the file reached${question(201, 215, 215)}`), from);
    cucm.send('q');
    await cucm.waitFor(/admin:$/, from);

    const at = cucm.output().length;
    cucm.send('file list activelog platform/drf/log page\r');
    await cucm.waitFor(endsWith(`end of the file reached${question(1, 3, 3)}`), at);
    cucm.send('q');
    await cucm.waitFor(/admin:$/, at);
  });

  it('show cuc cluster status on Unity Connection only', async () => {
    assert.match(
      await cuc.run('show cuc cluster status'),
      /^cuc-pub +0 +Primary +Pri Single Server +Normal$/m,
    );
    assert.match(await cucm.run('show cuc cluster status'), /No valid command entered/);
  });

  it('an unknown or incomplete command answers as VOS does', async () => {
    for (const c of ['show me the money', 'uname -a', 'show perf']) {
      assert.match(
        await cuc.run(c),
        /^\r?\nExecuted command unsuccessfully\r\nNo valid command entered\r\n$/,
      );
    }
  });
});
