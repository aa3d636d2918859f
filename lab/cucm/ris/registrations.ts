import type { Database } from '../../informix/database.ts';
import type { SlidingWindow } from '../../state/sliding-window.ts';
import { CUCM_PUBLISHER, CUCM_SUBSCRIBER, DEMO_PHONES, extraPhoneName } from '../topology.ts';

export type RegistrationStatus = 'Registered' | 'UnRegistered' | 'Rejected' | 'PartiallyRegistered';

/** What one CallManager node knows of one device. A device may be known to several nodes. */
export interface Registration {
  node: string;
  status: RegistrationStatus;
  /** 0 registered, 6 connectivity error, 9 CallManager reset, 13 keep-alive timeout, 16 duplicate... */
  statusReason: number;
  ip: string;
  /** Seconds since the epoch of the last change. */
  timestamp: number;
  activeLoad: string;
  loginUserId?: string;
}

export interface RisState {
  /** Device name (uppercase) to what each node reports. Tests may add, change or delete entries. */
  registrations: Map<string, Registration[]>;
  /** The per-minute window of accepted requests; `reset()` gives a test a fresh minute. */
  window: SlidingWindow;
  /** The RisPort nodes, in the order answers list them. */
  nodes: string[];
  /** When each node's RIS subsystem "started" (StateInfo carries it). */
  startedAt: number;
}

const LOADS: Record<string, string> = {
  'Cisco 8865': 'sip8845_65.14-2-1-0001-14',
  'Cisco 8845': 'sip8845_65.14-2-1-0001-14',
  'Cisco 8851': 'sip88xx.14-2-1-0001-14',
  'Cisco 7841': 'sip78xx.14-2-1-0001-14',
  'Cisco 7965': 'SCCP45.9-4-2SR4-3S',
};

export function loadFor(model: string): string {
  return LOADS[model] ?? 'sip88xx.14-2-1-0001-14';
}

/**
 * Registration state as seeded: demo phones spread over both nodes, one phone reported by both (a stale
 * UnRegistered record where it used to be), one phone unregistered, the SIP trunk on both nodes, and the
 * bulk phones registered with a stale duplicate every tenth device.
 */
export function seedRegistrations(
  db: Database,
  extraPhones: number,
  nodes: { publisher: string; subscriber: string } = {
    publisher: CUCM_PUBLISHER,
    subscriber: CUCM_SUBSCRIBER,
  },
): Map<string, Registration[]> {
  const { publisher, subscriber } = nodes;
  const now = Math.floor(Date.now() / 1000);
  const map = new Map<string, Registration[]>();
  const put = (name: string, r: Registration): void => {
    const list = map.get(name.toUpperCase()) ?? [];
    list.push(r);
    map.set(name.toUpperCase(), list);
  };
  const [p1, p2, p3, p4] = DEMO_PHONES;
  if (p1 && p2 && p3 && p4) {
    put(p1.name, {
      node: subscriber,
      status: 'Registered',
      statusReason: 0,
      ip: '10.10.30.11',
      timestamp: now - 600,
      activeLoad: loadFor(p1.model),
      loginUserId: 'jsmith',
    });
    put(p1.name, {
      node: publisher,
      status: 'UnRegistered',
      statusReason: 9,
      ip: '10.10.30.11',
      timestamp: now - 7200,
      activeLoad: loadFor(p1.model),
    });
    put(p2.name, {
      node: subscriber,
      status: 'Registered',
      statusReason: 0,
      ip: '10.10.30.12',
      timestamp: now - 3600,
      activeLoad: loadFor(p2.model),
      loginUserId: 'jsmith',
    });
    put(p3.name, {
      node: publisher,
      status: 'Registered',
      statusReason: 0,
      ip: '10.10.30.13',
      timestamp: now - 1800,
      activeLoad: loadFor(p3.model),
      loginUserId: 'mlee',
    });
    put(p4.name, {
      node: subscriber,
      status: 'UnRegistered',
      statusReason: 6,
      ip: '10.10.30.14',
      timestamp: now - 86_400,
      activeLoad: loadFor(p4.model),
    });
  }
  const trunk = db.table('device').findBy('name', 'SIP_TO_SBC');
  if (trunk) {
    for (const node of [publisher, subscriber]) {
      put('SIP_TO_SBC', {
        node,
        status: 'Registered',
        statusReason: 0,
        ip: '192.0.2.10',
        timestamp: now - 86_400,
        activeLoad: '',
      });
    }
  }
  for (let i = 1; i <= extraPhones; i++) {
    const model = i % 2 === 0 ? 'Cisco 7841' : 'Cisco 8865';
    const home = i % 2 === 0 ? publisher : subscriber;
    const other = home === publisher ? subscriber : publisher;
    const ip = `10.${20 + Math.floor(i / 65_025)}.${Math.floor(i / 255) % 255}.${(i % 255) + 1}`;
    const registered = i % 50 !== 0;
    put(extraPhoneName(i), {
      node: home,
      status: registered ? 'Registered' : 'UnRegistered',
      statusReason: registered ? 0 : 13,
      ip,
      timestamp: now - (i % 3600),
      activeLoad: loadFor(model),
    });
    if (i % 10 === 0)
      put(extraPhoneName(i), {
        node: other,
        status: 'UnRegistered',
        statusReason: 9,
        ip,
        timestamp: now - 7200,
        activeLoad: loadFor(model),
      });
  }
  return map;
}
