// The lab's Informix SQL at enterprise scale: the CUCM tables filled with 25,000 phones, 30,000 lines and
// 30,000 line appearances, then typical executeSQLQuery statements (a three-table join, grouping, a
// correlated EXISTS, the catalog) timed in process, without HTTP. Prints figures; never asserts timing.
// Run: node --import tsx bench/lab-sql.ts [phones] [repeats]
import { CUCM_TABLES } from '../lab/cucm/db/schema.ts';
import { Database } from '../lab/informix/database.ts';
import { runQuery } from '../lab/informix/sql-executor.ts';

const phones = Number(process.argv[2] ?? 25_000);
const repeats = Number(process.argv[3] ?? 7);
const lines = Math.round(phones * 1.2);

const t0 = performance.now();
const db = new Database(CUCM_TABLES);
for (let i = 0; i < phones; i++) {
  db.insert('device', {
    pkid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `SEP${i.toString(16).toUpperCase().padStart(12, '0')}`,
    description: `Phone ${i}`,
    tkclass: '1',
    tkmodel: i % 3 === 0 ? '36670' : '36213',
  });
}
for (let i = 0; i < lines; i++) {
  db.insert('numplan', {
    pkid: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
    dnorpattern: String(100_000 + i),
    tkpatternusage: '2',
  });
}
for (let i = 0; i < lines; i++) {
  db.insert('devicenumplanmap', {
    fkdevice: `00000000-0000-4000-8000-${String(i % phones).padStart(12, '0')}`,
    fknumplan: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`,
    numplanindex: String(Math.floor(i / phones) + 1),
  });
}
console.log(
  `filled ${phones} devices, ${lines} numplan rows, ${lines} devicenumplanmap rows in ${(performance.now() - t0).toFixed(0)} ms`,
);

const QUERIES: [string, string][] = [
  [
    'three-table join, every row, ordered',
    `select d.name, n.dnorpattern, m.numplanindex from device d
       inner join devicenumplanmap m on m.fkdevice = d.pkid
       inner join numplan n on n.pkid = m.fknumplan order by d.name, m.numplanindex`,
  ],
  [
    'three-table comma join, count',
    `select count(*) from device d, devicenumplanmap m, numplan n
      where m.fkdevice = d.pkid and n.pkid = m.fknumplan and d.tkclass = 1`,
  ],
  [
    'left join + group by model',
    `select d.tkmodel, count(m.pkid) appearances from device d
       left join devicenumplanmap m on m.fkdevice = d.pkid group by d.tkmodel order by 2 desc`,
  ],
  [
    'correlated NOT EXISTS',
    'select count(*) from numplan n where not exists (select 1 from devicenumplanmap m where m.fknumplan = n.pkid)',
  ],
  ['systables', 'select tabname, nrows from systables where tabid > 99 order by nrows desc'],
];

const ms = (n: number): string => `${n.toFixed(1)} ms`;
for (const [label, sql] of QUERIES) {
  const times: number[] = [];
  let rows = 0;
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    rows = runQuery(db, sql).rows.length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.log(
    `${label.padEnd(40)} rows ${String(rows).padStart(6)}  min ${ms(times[0] ?? 0)}  median ${ms(median)}  max ${ms(times[times.length - 1] ?? 0)}`,
  );
}
