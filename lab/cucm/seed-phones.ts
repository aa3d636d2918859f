import type { Database, Row } from '../informix/database.ts';
import { USER_CONTROLS_DEVICE } from './db/schema.ts';
import { CLASS_PHONE, PHONE_MODELS } from './db/types.ts';
import type { DemoPhone } from './topology.ts';
import { extraPhoneName } from './topology.ts';

const modelEnum = (name: string): string => PHONE_MODELS.find((m) => m.name === name)?.enum ?? '36670';

export interface PhonePlacement {
  pool: Readonly<Row>;
  css: Readonly<Row>;
  partition: Readonly<Row>;
  securityProfile: Readonly<Row>;
  /** End users by userid, for owners and controlled-device associations. */
  users: ReadonlyMap<string, Readonly<Row>>;
}

/** The bulk phones a benchmark asks for: alternately 8865 and 7841, extensions from 200001. */
export function bulkPhones(count: number): DemoPhone[] {
  return Array.from({ length: count }, (_, k) => {
    const i = k + 1;
    return {
      name: extraPhoneName(i),
      model: i % 2 === 0 ? 'Cisco 7841' : 'Cisco 8865',
      protocol: 'SIP',
      dn: String(200000 + i),
      description: `Bulk phone ${i}`,
    };
  });
}

/** Phones with one line each, owned by and associated with their user when they have one. */
export function seedPhones(db: Database, phones: readonly DemoPhone[], at: PhonePlacement): void {
  for (const p of phones) {
    const owner = p.owner ? at.users.get(p.owner) : undefined;
    const device = db.insert('device', {
      name: p.name,
      description: p.description,
      tkclass: CLASS_PHONE,
      tkmodel: modelEnum(p.model),
      tkproduct: modelEnum(p.model),
      tkdeviceprotocol: p.protocol === 'SIP' ? '11' : '0',
      fkdevicepool: at.pool.pkid,
      fkcallingsearchspace: at.css.pkid,
      fksecurityprofile: at.securityProfile.pkid,
      fkenduser: owner?.pkid ?? null,
    });
    const dn = db.insert('numplan', {
      dnorpattern: p.dn,
      fkroutepartition: at.partition.pkid,
      description: p.description,
      alertingname: p.description,
    });
    db.insert('devicenumplanmap', {
      fkdevice: device.pkid,
      fknumplan: dn.pkid,
      numplanindex: '1',
      display: p.description,
      label: p.dn,
    });
    if (owner)
      db.insert('enduserdevicemap', {
        fkenduser: owner.pkid,
        fkdevice: device.pkid,
        tkuserassociation: USER_CONTROLS_DEVICE,
      });
  }
}
