/**
 * typeclass and typemodel enums of the devices that are not phones or trunks. Class numbers follow the
 * order of the AXL 15.0 XClass enumeration's data-dictionary values as the lab recalls them (Conference
 * Bridge 4, Media Termination Point 5, CTI Route Point 10, Route List 14); model numbers other than
 * Route List (90) and CTI Route Point (73) are the lab's own. Names are the XProduct values.
 */
export const CLASS_CONFERENCE_BRIDGE = '4';
export const CLASS_MTP = '5';
export const CLASS_CTI_ROUTE_POINT = '10';
export const CLASS_ROUTE_LIST = '14';

export const ROUTE_LIST_MODEL = '90';
export const HUNT_LIST_MODEL = '91';
export const CTI_ROUTE_POINT_MODEL = '73';
export const CONFERENCE_BRIDGE_MODEL = '50';
export const MTP_MODEL = '110';
export const TRANSCODER_MODEL = '117';

export const DEVICE_KIND_MODELS: Readonly<Record<string, string>> = {
  [ROUTE_LIST_MODEL]: 'Route List',
  [HUNT_LIST_MODEL]: 'Hunt List',
  [CTI_ROUTE_POINT_MODEL]: 'CTI Route Point',
  [CONFERENCE_BRIDGE_MODEL]: 'Cisco Conference Bridge Software',
  [MTP_MODEL]: 'Cisco Media Termination Point Software',
  [TRANSCODER_MODEL]: 'Cisco IOS Enhanced Media Termination Point',
};

export const DEVICE_KIND_CLASSES: Readonly<Record<string, string>> = {
  [CLASS_CONFERENCE_BRIDGE]: 'Conference Bridge',
  [CLASS_MTP]: 'Media Termination Point',
  [CLASS_CTI_ROUTE_POINT]: 'CTI Route Point',
  [CLASS_ROUTE_LIST]: 'Route List',
};
