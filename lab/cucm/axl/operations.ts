import type { Family } from './family.ts';
import { familyOperations } from './family-ops.ts';
import { lineFamily, phoneFamily, sipTrunkFamily } from './families/devices.ts';
import { cssFamily, devicePoolFamily, routePartitionFamily } from './families/dialplan.ts';
import {
  callManagerFamily,
  processNodeFamily,
  serviceParameterFamily,
  sipTrunkSecurityProfileFamily,
} from './families/system.ts';
import { appUserFamily, credentialPolicyFamily, userFamily } from './families/users.ts';
import { ACTION_OPERATIONS } from './actions.ts';
import { LDAP_FAMILIES } from './families/ldap.ts';
import { MEDIA_FAMILIES } from './families/media.ts';
import { PATTERN_FAMILIES } from './families/patterns.ts';
import { ROUTING_FAMILIES } from './families/routing.ts';
import { SITE_FAMILIES } from './families/sites.ts';
import type { AxlOperation } from './operation.ts';
import { executeSqlQuery, executeSqlUpdate, getCcmVersion } from './sql-ops.ts';

/** Every object family the CUCM publisher's AXL simulates; the toolkit schema is generated from it. */
export const CUCM_FAMILIES: readonly Family[] = [
  phoneFamily,
  lineFamily,
  userFamily,
  appUserFamily,
  devicePoolFamily,
  routePartitionFamily,
  cssFamily,
  sipTrunkFamily,
  sipTrunkSecurityProfileFamily,
  processNodeFamily,
  callManagerFamily,
  serviceParameterFamily,
  credentialPolicyFamily,
  ...PATTERN_FAMILIES,
  ...ROUTING_FAMILIES,
  ...MEDIA_FAMILIES,
  ...SITE_FAMILIES,
  ...LDAP_FAMILIES,
];

export function cucmOperations(version: string): AxlOperation[] {
  return [
    ...CUCM_FAMILIES.flatMap(familyOperations),
    ...ACTION_OPERATIONS,
    getCcmVersion(version),
    executeSqlQuery,
    executeSqlUpdate,
  ];
}
