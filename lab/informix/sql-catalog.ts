// The Informix system catalog tables `systables` and `syscolumns`, computed from whatever tables the database
// holds when the query runs. Column names and codes follow the Informix Guide to SQL: Reference ("SYSTABLES",
// "SYSCOLUMNS"); user tables get tabid 100 and up as on a real server, the catalog tables their own low tabids.
import type { Cell, Database, Row, TableSchema } from './database.ts';

export interface CatalogTable {
  columns: readonly string[];
  rows: readonly Row[];
}

const SYSTABLES_COLUMNS = [
  'tabname',
  'owner',
  'partnum',
  'tabid',
  'rowsize',
  'ncols',
  'nindexes',
  'nrows',
  'created',
  'version',
  'tabtype',
  'locklevel',
  'npused',
  'fextsize',
  'nextsize',
  'flags',
  'site',
  'dbname',
  'type_xid',
  'am_id',
  'pagesize',
] as const;

const SYSCOLUMNS_COLUMNS = [
  'colname',
  'tabid',
  'colno',
  'coltype',
  'collength',
  'colmin',
  'colmax',
  'extended_id',
  'seclabelid',
  'colattr',
] as const;

const CATALOG: Record<string, { tabid: number; columns: readonly string[] }> = {
  systables: { tabid: 1, columns: SYSTABLES_COLUMNS },
  syscolumns: { tabid: 2, columns: SYSCOLUMNS_COLUMNS },
};

export function isCatalogTable(name: string): boolean {
  return Object.hasOwn(CATALOG, name.toLowerCase());
}

/** The rows of a catalog table, or undefined for any other name. */
export function catalogTable(db: Database, name: string): CatalogTable | undefined {
  const lower = name.toLowerCase();
  if (!isCatalogTable(lower) || db.hasTable(lower)) return undefined;
  const tables = describeTables(db);
  if (lower === 'systables') return { columns: SYSTABLES_COLUMNS, rows: tables.map(systablesRow) };
  return { columns: SYSCOLUMNS_COLUMNS, rows: tables.flatMap(syscolumnsRows) };
}

interface Described {
  tabid: number;
  name: string;
  columns: readonly string[];
  nindexes: number;
  nrows: number;
}

function describeTables(db: Database): Described[] {
  const list: Described[] = Object.entries(CATALOG).map(([name, c]) => ({
    tabid: c.tabid,
    name,
    columns: c.columns,
    nindexes: 1,
    nrows: 0,
  }));
  db.tableNames().forEach((name, i) => {
    const table = db.table(name);
    list.push({
      tabid: 100 + i,
      name,
      columns: table.schema.columns,
      nindexes: indexCount(table.schema),
      nrows: table.size,
    });
  });
  const systables = list[0] as Described;
  systables.nrows = list.length;
  (list[1] as Described).nrows = list.reduce((n, t) => n + t.columns.length, 0);
  return list;
}

function indexCount(schema: TableSchema): number {
  return (schema.columns.includes('pkid') ? 1 : 0) + (schema.unique?.length ?? 0);
}

// The lab keeps every value as text: columns are described as VARCHAR(255) (coltype 13), except `pkid`,
// the uuid key, CHAR(36) NOT NULL (0 + 256) as CUCM declares it. Physical figures (partnum, rowsize,
// extents, pagesize) have no meaning in memory; they are plausible constants, not measurements.
function columnType(column: string): { coltype: number; collength: number } {
  return column === 'pkid' ? { coltype: 256, collength: 36 } : { coltype: 13, collength: 255 };
}

function systablesRow(t: Described): Row {
  const rowsize = t.columns.reduce((n, c) => n + columnType(c).collength, 0);
  const values: Record<(typeof SYSTABLES_COLUMNS)[number], Cell> = {
    tabname: t.name,
    owner: 'informix',
    partnum: String(1048576 + t.tabid),
    tabid: String(t.tabid),
    rowsize: String(Math.min(rowsize, 32767)),
    ncols: String(t.columns.length),
    nindexes: String(t.nindexes),
    // A real server refreshes nrows on UPDATE STATISTICS; the lab's count is always current.
    nrows: String(t.nrows),
    created: '01/01/2025',
    version: String(t.tabid * 65536),
    tabtype: 'T',
    locklevel: 'R',
    npused: String(Math.ceil(t.nrows / 8)),
    fextsize: '16',
    nextsize: '16',
    flags: '0',
    site: '',
    dbname: '',
    type_xid: '0',
    am_id: '0',
    pagesize: '2048',
  };
  return values;
}

function syscolumnsRows(t: Described): Row[] {
  return t.columns.map((colname, i) => {
    const type = columnType(colname);
    return {
      colname,
      tabid: String(t.tabid),
      colno: String(i + 1),
      coltype: String(type.coltype),
      collength: String(type.collength),
      colmin: null,
      colmax: null,
      extended_id: '0',
      seclabelid: '0',
      colattr: '0',
    };
  });
}
