import type { Family } from '../cucm/axl/family.ts';
import { familyOperations } from '../cucm/axl/family-ops.ts';
import { processNodeFamily } from '../cucm/axl/families/system.ts';
import { credentialPolicyFamily } from '../cucm/axl/families/users.ts';
import type { AxlOperation } from '../cucm/axl/operation.ts';
import { executeSqlQuery, executeSqlUpdate, getCcmVersion } from '../cucm/axl/sql-ops.ts';
import { PRESENCE_OPERATIONS, presenceRedundancyGroupFamily } from './presence-ops.ts';

/** End users as IM&P sees them: synchronised from CUCM, so read-only here. */
const impUserFamily: Family = {
  name: 'User',
  tag: 'user',
  label: 'User',
  table: 'enduser',
  keys: ['userid'],
  fields: [
    { axl: 'firstName', column: 'firstname' },
    { axl: 'lastName', column: 'lastname' },
    { axl: 'userid', column: 'userid' },
    { axl: 'mailid', column: 'mailid' },
    { axl: 'imAndPresenceEnable', column: 'enablecups', type: 'bool' },
  ],
  required: ['userid'],
  search: ['firstName', 'lastName', 'userid'],
  ops: ['get', 'list'],
};

const impProcessNodes: Family = { ...processNodeFamily, ops: ['get', 'list'] };

/** Credential policies are synchronised from CUCM too: readable here, changed on CUCM. */
const impCredentialPolicies: Family = { ...credentialPolicyFamily, ops: ['get', 'list'] };

export function impOperations(version: string): AxlOperation[] {
  return [
    ...[presenceRedundancyGroupFamily, impUserFamily, impProcessNodes, impCredentialPolicies].flatMap(
      familyOperations,
    ),
    ...PRESENCE_OPERATIONS,
    getCcmVersion(version),
    executeSqlQuery,
    executeSqlUpdate,
  ];
}
