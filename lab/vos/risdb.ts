// The RIS database as the CLI of a CUCM node reads it: every device RisPort knows, with the record each
// CallManager node keeps of it, so `show risdb query phone` agrees with selectCmDevice.
import { CLASS_PHONE, MODELS, PROTOCOLS } from '../cucm/db/types.ts';
import type { Registration } from '../cucm/ris/registrations.ts';
import type { Database } from '../informix/database.ts';
import type { RisPhone } from './facts.ts';

export function risPhones(db: Database, registrations: ReadonlyMap<string, Registration[]>): RisPhone[] {
  const devices = db.table('device');
  const users = db.table('enduser');
  const out: RisPhone[] = [];
  for (const name of [...registrations.keys()].sort()) {
    const device = devices.findBy('name', name);
    // Trunks and gateways are other RIS classes; a device deleted through AXL is gone from RIS too.
    if (!device || device.tkclass !== CLASS_PHONE) continue;
    const owner = device.fkenduser ? users.byPkid(device.fkenduser)?.userid : undefined;
    for (const r of registrations.get(name) ?? []) {
      out.push({
        name: device.name ?? name,
        description: device.description ?? '',
        ip: r.ip,
        model: MODELS[device.tkmodel ?? ''] ?? 'Unknown',
        protocol: PROTOCOLS[device.tkdeviceprotocol ?? ''] ?? 'Unknown',
        user: r.loginUserId ?? owner ?? '',
        status: r.status,
        statusReason: r.statusReason,
        node: r.node,
        timestamp: r.timestamp,
      });
    }
  }
  return out;
}
