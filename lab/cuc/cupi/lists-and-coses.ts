// The system distribution lists and classes of service a new Unity Connection holds, as CUPI shows
// them at /vmrest/distributionlists and /vmrest/coses. Element and field names follow Cisco's CUPI API
// guide ("CUPI API for Distribution List": DistributionLists/DistributionList with URI, ObjectId, Alias,
// DisplayName, LocationObjectId, PartitionObjectId, DistributionListMembersURI, ...; "Class of Service
// (COS)": Coses/Cos with DisplayName, MaxMsgLength, MaxGreetingLength, MovetoDeleteFolder, ...). The
// two lists and two classes are the defaults those pages show (undeliverablemessages,
// allvoicemailusers; Voice Mail User COS, System). Both classes deny the Web Inbox (AccessVmi) unless the
// weakness cuc-web-inbox-enabled is seeded: a real node grants it by default, the lab's baseline is hardened.
import { randomUUID } from 'node:crypto';
import type { Weaknesses } from '../../weaknesses/index.ts';
import type { CupiObject, CupiStore } from './store.ts';

export function seedListsAndCoses(store: CupiStore, weaknesses: Weaknesses): void {
  const lists = store.define(
    'distributionlists',
    'DistributionLists',
    'DistributionList',
    ['Alias', 'DisplayName'],
    'Alias',
  );
  const coses = store.define('coses', 'Coses', 'Cos', ['DisplayName'], 'DisplayName');
  const locationId = randomUUID();
  const partitionId = randomUUID();
  for (const [alias, displayName] of [
    ['undeliverablemessages', 'Undeliverable Messages'],
    ['allvoicemailusers', 'All Voice Mail Users'],
  ] as const) {
    const dl = store.create(lists, {
      Alias: alias,
      DisplayName: displayName,
      LocationObjectId: locationId,
      LocationURI: `/vmrest/locations/connectionlocations/${locationId}`,
      PartitionObjectId: partitionId,
      PartitionURI: `/vmrest/partitions/${partitionId}`,
      AllowContacts: 'false',
      AllowForeignMessage: 'false',
      IsPublic: 'true',
      Undeletable: 'true',
    });
    const id = dl.ObjectId as string;
    dl.DistributionListMembersURI = `/vmrest/distributionlists/${id}/distributionlistmembers`;
    dl.AlternateNamesURI = `/vmrest/alternatenames?query=(DistributionListObjectId%20is%20${id})`;
  }
  const restriction = (): string => randomUUID();
  const cos = (displayName: string, o: Partial<CupiObject>): void => {
    store.create(coses, {
      DisplayName: displayName,
      AccessFaxMail: 'false',
      AccessTts: 'false',
      CallHoldAvailable: 'false',
      CallScreenAvailable: 'false',
      CanRecordName: 'true',
      FaxRestrictionObjectId: restriction(),
      ListInDirectoryStatus: 'true',
      LocationObjectId: locationId,
      LocationURI: `/vmrest/locations/connectionlocations/${locationId}`,
      MaxGreetingLength: '90',
      MaxMsgLength: '300',
      MaxNameLength: '30',
      MaxPrivateDlists: '25',
      MovetoDeleteFolder: 'true',
      OutcallRestrictionObjectId: restriction(),
      PersonalAdministrator: 'true',
      XferRestrictionObjectId: restriction(),
      Undeletable: 'true',
      WarnIntervalMsgEnd: '0',
      CanSendToPublicDl: 'true',
      EnableEnhancedSecurity: 'false',
      AccessVmi: 'false',
      AccessLiveReply: 'false',
      UaAlternateExtensionAccess: '0',
      AccessCallRoutingRules: 'false',
      WarnMinMsgLength: '0',
      SendBroadcastMessage: 'false',
      ...o,
    } as CupiObject);
  };
  cos('Voice Mail User COS', weaknesses.has('cuc-web-inbox-enabled') ? { AccessVmi: 'true' } : {});
  cos('System', { PersonalAdministrator: 'false', CanRecordName: 'false' });
}
