// Unity Connection's directory through the CLI as the CLI Reference documents it: `run cuc dbquery`
// prints a query's rows (the audit's way to read per-object settings in one call), `show cuc dbview
// contents` writes a CSV file and prints only where, and a wrong view or column is an Informix fault,
// never an empty answer an audit could read as a pass.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lab } from '../../lab/index.ts';
import { DEMO_CREDENTIALS, labNode } from '../../lab/index.ts';
import { startTestLab } from './helpers.ts';
import type { CliSession } from './ssh-client.ts';
import { openCli } from './ssh-client.ts';

const rows = (out: string): string[] =>
  out
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');

describe('Unity Connection directory queries on the lab CLI', () => {
  let lab: Lab;
  let cli: CliSession;
  before(async () => {
    lab = await startTestLab({ weaknesses: ['cuc-system-transfer-open'] });
    cli = await openCli(
      labNode(lab.info, 'cuc').ports.ssh as number,
      DEMO_CREDENTIALS.os.user,
      DEMO_CREDENTIALS.os.password,
      { rows: 24 },
    );
    await cli.run('set cli pagination off');
  });
  after(async () => {
    cli.close();
    await lab.stop();
  });

  it('run cuc dbquery prints the rows under a rule of dashes, in the order asked', async () => {
    const out = rows(
      await cli.run(
        "run cuc dbquery unitydirdb select sequencenumber, blocked, numberpattern from vw_restrictionpattern where restrictiontableobjectid in (select objectid from vw_restrictiontable where displayname='Default System Transfer') order by sequencenumber",
      ),
    );
    assert.deepEqual(out.slice(0, 4), [
      'sequencenumber  blocked  numberpattern',
      '--------------  -------  -------------',
      '0               1        9011*',
      '1               0        *',
    ]);
    const creds = rows(
      await cli.run('run cuc dbquery unitydirdb select credentialtype, doesntexpire from vw_credential'),
    );
    assert.equal(creds[0], 'credentialtype  doesntexpire');
    assert.ok(creds.length > 2 && creds.slice(2).every((l) => /^4 +0$/.test(l)), creds.join('\n'));
  });

  it('an unknown view or column fails with the Informix code instead of answering no rows', async () => {
    assert.match(
      await cli.run('run cuc dbquery unitydirdb select nosuchcolumn from vw_credential'),
      /-217: Column \(nosuchcolumn\) not found/,
    );
    assert.match(
      await cli.run('run cuc dbquery unitydirdb select objectid from vw_nosuchview'),
      /-206: .*vw_nosuchview/,
    );
    assert.match(await cli.run('run cuc dbquery unitydirdb'), /Usage: run cuc dbquery/);
    assert.match(
      await cli.run('run cuc dbquery unitydirdb update vw_credential set locked=1'),
      /SELECT queries only/,
    );
  });

  it('show cuc dbview contents names the CSV file it wrote and prints no rows', async () => {
    const out = rows(await cli.run('show cuc dbview contents unitydirdb vw_restrictionpattern'));
    assert.match(out[0] ?? '', /^Output is in file: cuc\/cli\/vw_restrictionpattern_\d{6}-\d{6}\.csv$/);
    assert.ok(!out.some((l) => l.includes('numberpattern')));
    assert.ok(rows(await cli.run('show cuc dbview list unitydirdb')).includes('vw_credential'));
  });
});
