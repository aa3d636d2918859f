import type { Cell, Database, Row } from '../informix/database.ts';
import { PATTERN_USAGE } from './db/schema-dialplan.ts';
import {
  CLASS_CONFERENCE_BRIDGE,
  CLASS_CTI_ROUTE_POINT,
  CLASS_MTP,
  CLASS_ROUTE_LIST,
  CONFERENCE_BRIDGE_MODEL,
  CTI_ROUTE_POINT_MODEL,
  DEVICE_KIND_CLASSES,
  DEVICE_KIND_MODELS,
  HUNT_LIST_MODEL,
  MTP_MODEL,
  ROUTE_LIST_MODEL,
  TRANSCODER_MODEL,
} from './axl/families/device-kinds.ts';

/**
 * One of each object of the dial plan, media and LDAP families, wired as a small site would have them:
 * a route list over the SBC trunk behind the PSTN patterns, a hunt pilot over the demo lines, a
 * conference bridge in the default media resource group. Runs after the base seed (it looks up the
 * device pool, partitions, CSS, trunk and lines by name) and tolerates any of them missing.
 */
export function seedDialPlan(db: Database): void {
  const ins = (table: string, values: Record<string, Cell | undefined>): Row => db.insert(table, values);
  const byName = (table: string, name: string): Row | undefined => db.table(table).findBy('name', name);
  for (const [e, name] of Object.entries(DEVICE_KIND_MODELS))
    if (!db.table('typemodel').findBy('enum', e)) ins('typemodel', { enum: e, name });
  for (const [e, name] of Object.entries(DEVICE_KIND_CLASSES))
    if (!db.table('typeclass').findBy('enum', e)) ins('typeclass', { enum: e, name });

  const pool = byName('devicepool', 'DP_HQ') ?? db.table('devicepool').rows[0];
  const cmGroup = byName('callmanagergroup', 'Default') ?? db.table('callmanagergroup').rows[0];
  const internal = byName('routepartition', 'PT_Internal');
  const pstn = byName('routepartition', 'PT_PSTN');
  const cssInternal = byName('callingsearchspace', 'CSS_Internal');
  const trunk = byName('device', 'SIP_TO_SBC');
  const device = (name: string, description: string, tkclass: string, model: string, extra: Row = {}): Row =>
    ins('device', {
      name,
      description,
      tkclass,
      tkmodel: model,
      tkproduct: model,
      fkdevicepool: pool?.pkid ?? null,
      ...extra,
    });

  const routeGroup = ins('routegroup', { name: 'RG_SBC', tkdistributealgorithm: '1' });
  if (trunk)
    ins('routegroupdevicemap', {
      fkroutegroup: routeGroup.pkid,
      fkdevice: trunk.pkid,
      deviceselectionorder: '1',
      port: '0',
    });
  const routeList = device('RL_PSTN', 'PSTN route list', CLASS_ROUTE_LIST, ROUTE_LIST_MODEL, {
    fkcallmanagergroup: cmGroup?.pkid ?? null,
  });
  ins('routelist', { fkdevice: routeList.pkid, fkroutegroup: routeGroup.pkid, selectionorder: '1' });
  // The PSTN route patterns route to the route list.
  db.table('numplan')
    .filter((r) => r.tkpatternusage === PATTERN_USAGE.route)
    .forEach((p, i) =>
      ins('devicenumplanmap', { fkdevice: routeList.pkid, fknumplan: p.pkid, numplanindex: String(i + 1) }),
    );

  const lineGroup = ins('linegroup', {
    name: 'LG_Sales',
    rnareversiontimeout: '10',
    tkdistributealgorithm: '1',
  });
  db.table('numplan')
    .filter(
      (r) => r.tkpatternusage === PATTERN_USAGE.device && r.fkroutepartition === (internal?.pkid ?? null),
    )
    .slice(0, 3)
    .forEach((dn, i) =>
      ins('linegroupnumplanmap', {
        fklinegroup: lineGroup.pkid,
        fknumplan: dn.pkid,
        lineselectionorder: String(i + 1),
      }),
    );
  const huntList = device('HL_Sales', 'Sales hunt list', CLASS_ROUTE_LIST, HUNT_LIST_MODEL, {
    fkcallmanagergroup: cmGroup?.pkid ?? null,
  });
  ins('routelist', { fkdevice: huntList.pkid, fklinegroup: lineGroup.pkid, selectionorder: '1' });

  const pattern = (dnorpattern: string, usage: string, description: string, extra: Row = {}): Row =>
    ins('numplan', {
      dnorpattern,
      tkpatternusage: usage,
      description,
      fkroutepartition: internal?.pkid ?? null,
      ...extra,
    });
  const pilot = pattern('1900', PATTERN_USAGE.huntPilot, 'Sales hunt pilot', { alertingname: 'Sales' });
  ins('devicenumplanmap', { fkdevice: huntList.pkid, fknumplan: pilot.pkid, numplanindex: '1' });
  pattern('8XXX', PATTERN_USAGE.translation, 'Site code 8 to internal', {
    calledpartytransformationmask: '1XXX',
    fkcallingsearchspace_translation: cssInternal?.pkid ?? null,
  });
  const cm = db.table('callmanager').rows[0];
  pattern('7001', PATTERN_USAGE.callPark, 'Call park', { fkcallmanager: cm?.pkid ?? null });
  pattern('7100', PATTERN_USAGE.directedCallPark, 'Directed call park');
  pattern('7200', PATTERN_USAGE.conference, 'Meet-me conference');
  pattern('\\+1.!', PATTERN_USAGE.callingTransformation, 'Globalised caller id', {
    fkroutepartition: pstn?.pkid ?? null,
    callingpartytransformationmask: '+1XXXXXXXXXX',
  });
  pattern('9.!', PATTERN_USAGE.calledTransformation, 'Strip the access code', {
    fkroutepartition: pstn?.pkid ?? null,
    calledpartytransformationmask: '',
  });

  device('CTI_RP_IVR', 'IVR entry point', CLASS_CTI_ROUTE_POINT, CTI_ROUTE_POINT_MODEL, {
    fkcallingsearchspace: cssInternal?.pkid ?? null,
  });
  const cfb = device(
    'CFB_PUB',
    'Software conference bridge',
    CLASS_CONFERENCE_BRIDGE,
    CONFERENCE_BRIDGE_MODEL,
  );
  const mtp = device('MTP_PUB', 'Software MTP', CLASS_MTP, MTP_MODEL);
  device('XCODE_HQ', 'Router transcoder', CLASS_MTP, TRANSCODER_MODEL);
  const mrg = ins('mediaresourcegroup', {
    name: 'MRG_HQ',
    description: 'HQ media resources',
    multicast: 'f',
  });
  for (const d of [cfb, mtp])
    ins('mediaresourcegroupmember', { fkmediaresourcegroup: mrg.pkid, fkdevice: d.pkid });
  const mrgl = ins('mediaresourcelist', { name: 'MRGL_HQ' });
  ins('mediaresourcelistmember', {
    fkmediaresourcelist: mrgl.pkid,
    fkmediaresourcegroup: mrg.pkid,
    sortorder: '1',
  });

  ins('region', { name: 'Default' });
  ins('location', { name: 'Hub_None' });
  ins('datetimesetting', { name: 'CMLocal', timezone: 'Etc/GMT', dateformat: 'M/D/Y' });
  ins('commondeviceconfig', { name: 'CDC_HQ' });
  ins('commonphoneconfig', { name: 'Standard Common Phone Profile', description: 'Default phone profile' });
  ins('sipprofile', { name: 'Standard SIP Profile', description: 'Default SIP Profile' });
  ins('srst', { name: 'Disable', ipaddress: '', port: '2000', sipport: '5060' });
  ins('aarneighborhood', { name: 'AAR_HQ' });
  ins('physicallocation', { name: 'HQ Building', description: 'Headquarters' });
  ins('devicemobilitygroup', { name: 'DMG_EMEA', description: 'EMEA sites' });
  ins('voicemessagingpilot', { directorynumber: '8000', description: 'Unity Connection', isdefault: 't' });
  ins('voicemessagingprofile', { name: 'Default', description: 'Default profile', isdefault: 't' });
  ins('directorypluginconfig', {
    name: 'Corporate AD',
    ldapdn: 'CN=svc-cucm,OU=Service,DC=lab,DC=example,DC=com',
    usersearchbase: 'OU=Users,DC=lab,DC=example,DC=com',
  });
  ins('ldapsystemconfig', {});
  ins('ldapauthentication', {});
}
