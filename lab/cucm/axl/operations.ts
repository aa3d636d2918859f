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
];

export function cucmOperations(version: string): AxlOperation[] {
  return [
    ...CUCM_FAMILIES.flatMap(familyOperations),
    getCcmVersion(version),
    executeSqlQuery,
    executeSqlUpdate,
  ];
}
