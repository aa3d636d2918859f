// The client of bench/lab-enterprise.ts, in a process of its own: reads every phone of the lab, either
// through the server (cucm_axl_call listPhone followed by its cursor, and executeSQLQuery with a join)
// or straight from the lab's AXL with the same number of pages (the baseline), `runs` times each.
// Prints one BENCH-RESULT line: per way, the milliseconds of each run and the rows it read.
//   node --import tsx bench/support/enterprise-client.ts '<json EnterpriseJob>'
import { pinnedFetch } from '../../test/helpers/https-client.ts';
import { connectMcp } from '../../test/helpers/mcp-client.ts';
import { printResult } from './proc.ts';
import { rawAxl } from './raw-axl.ts';

export const PHONE_LINES_SQL =
  'select d.name, n.dnorpattern from device d inner join devicenumplanmap m on m.fkdevice = d.pkid inner join numplan n on n.pkid = m.fknumplan where d.tkclass = 1';

export interface EnterpriseJob {
  mode: 'mcp' | 'raw';
  runs: number;
  serverUrl?: string;
  serverCertPem?: string;
  token?: string;
  cucmName: string;
  labTrustPem: string;
  cucmHttpsPort: number;
  user: string;
  password: string;
  /** Raw mode: rows per page, as many pages as the server asked for. */
  listPage?: number;
  sqlPage?: number;
}

export interface EnterpriseResult {
  list: { ms: number[]; rows: number };
  sql: { ms: number[]; rows: number };
}

const job = JSON.parse(process.argv[2] as string) as EnterpriseJob;

async function timed(fn: () => Promise<number>, runs: number): Promise<{ ms: number[]; rows: number }> {
  const ms: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    rows = await fn();
    ms.push(performance.now() - t);
  }
  return { ms, rows };
}

async function viaServer(): Promise<EnterpriseResult> {
  const fetch = pinnedFetch(job.serverCertPem as string);
  const mcp = await connectMcp({ url: job.serverUrl as string, fetch }, job.token as string);
  const readAll = async (operation: string, args: Record<string, unknown>, extra = {}): Promise<number> => {
    let rows = 0;
    let cursor: string | undefined;
    do {
      const r = await mcp.call('cucm_axl_call', {
        host: job.cucmName,
        operation,
        args,
        ...extra,
        ...(cursor ? { cursor } : {}),
      });
      if (r.isError) throw new Error(JSON.stringify(r.structuredContent ?? r.content).slice(0, 300));
      const s = r.structuredContent as { rows: unknown[]; cursor?: string };
      rows += s.rows.length;
      cursor = s.cursor;
    } while (cursor);
    return rows;
  };
  try {
    const list = await timed(
      () => readAll('listPhone', { searchCriteria: { name: '%' }, returnedTags: { name: '', model: '' } }),
      job.runs,
    );
    const sql = await timed(
      () => readAll('executeSQLQuery', { sql: PHONE_LINES_SQL }, { max_bytes: 4 * 1024 * 1024 }),
      job.runs,
    );
    return { list, sql };
  } finally {
    await mcp.close();
    await fetch.close();
  }
}

async function direct(): Promise<EnterpriseResult> {
  const { post, close } = rawAxl(job);
  const count = (xml: string, tag: string): number => xml.split(`<${tag}`).length - 1;
  const listPage = job.listPage ?? 1000;
  const sqlPage = job.sqlPage ?? 5000;
  try {
    const list = await timed(async () => {
      let rows = 0;
      for (let skip = 0; ; skip += listPage) {
        const xml = await post(
          'listPhone',
          `<searchCriteria><name>%</name></searchCriteria><returnedTags><name/><model/></returnedTags><skip>${skip}</skip><first>${listPage}</first>`,
        );
        const n = count(xml, 'phone ');
        rows += n;
        if (n < listPage) return rows;
      }
    }, job.runs);
    const sql = await timed(async () => {
      let rows = 0;
      for (let skip = 0; ; skip += sqlPage) {
        const paged = PHONE_LINES_SQL.replace(/^select /, `select skip ${skip} first ${sqlPage} `);
        const n = count(await post('executeSQLQuery', `<sql>${paged}</sql>`), 'row>');
        rows += n;
        if (n < sqlPage) return rows;
      }
    }, job.runs);
    return { list, sql };
  } finally {
    close();
  }
}

printResult(job.mode === 'mcp' ? await viaServer() : await direct());
