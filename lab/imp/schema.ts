import { CUCM_TABLES } from '../cucm/db/schema.ts';
import type { TableSchema } from '../informix/database.ts';

const SHARED = [
  'processnode',
  'processconfig',
  'enduser',
  'applicationuser',
  'dirgroup',
  'applicationuserdirgroupmap',
  'functionrole',
  'functionroledirgroupmap',
  'credentialpolicy',
  'credential',
];

/** The IM&P database: users and accounts synchronised from CUCM, plus the presence tables (lab names). */
export const IMP_TABLES: readonly TableSchema[] = [
  ...CUCM_TABLES.filter((t) => SHARED.includes(t.name)),
  {
    name: 'presenceredundancygroup',
    columns: ['pkid', 'name', 'description', 'fkprocessnode_1', 'fkprocessnode_2', 'haenabled'],
    unique: [['name']],
    references: {
      fkprocessnode_1: { table: 'processnode' },
      fkprocessnode_2: { table: 'processnode', onDelete: 'null' },
    },
    defaults: { description: '', haenabled: 'f' },
  },
  {
    name: 'presenceuserassignment',
    columns: ['pkid', 'fkenduser', 'fkprocessnode'],
    unique: [['fkenduser']],
    references: {
      fkenduser: { table: 'enduser', onDelete: 'cascade' },
      fkprocessnode: { table: 'processnode' },
    },
  },
];
