// RisPort's view of the generated phones: most registered with their group's primary subscriber, some
// failed over to the secondary (a stale record left on the primary), some unregistered and some never
// seen since they were added (no record at all, as a phone still in its box).
import type { Registration } from '../cucm/ris/registrations.ts';
import { loadFor } from '../cucm/ris/registrations.ts';
import type { ScalePhone } from './cucm.ts';
import { Rng } from './random.ts';

export function addScaleRegistrations(
  map: Map<string, Registration[]>,
  phones: readonly ScalePhone[],
  seed: string,
  now: number,
): void {
  const rng = new Rng(seed, 'ris');
  phones.forEach((p, i) => {
    const roll = rng.int(100);
    const ip = `10.${100 + (p.site % 150)}.${Math.floor(i / 250) % 250}.${(i % 250) + 2}`;
    const at = now - rng.int(7 * 86_400);
    const base = { ip, activeLoad: loadFor(p.model) };
    if (roll < 2) return;
    if (roll < 5) {
      map.set(p.name, [{ ...base, node: p.home, status: 'UnRegistered', statusReason: 13, timestamp: at }]);
      return;
    }
    const records: Registration[] = [];
    if (roll < 7 && p.backup !== p.home) {
      records.push({ ...base, node: p.backup, status: 'Registered', statusReason: 0, timestamp: at });
      records.push({ ...base, node: p.home, status: 'UnRegistered', statusReason: 9, timestamp: at - 3600 });
    } else {
      records.push({ ...base, node: p.home, status: 'Registered', statusReason: 0, timestamp: at });
    }
    map.set(p.name, records);
  });
}
