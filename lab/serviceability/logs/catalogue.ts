// The trace and log files a lab VOS node keeps, per service, as Log Collection lists them: each service's
// folder and file naming as on a real node (SDL traces of the CallManager and CTIManager as
// SDL001_100_000123.txt.gz, gzipped since 12.x; Tomcat's access logs by day; the audit log; syslog's
// CiscoSyslog and messages as system logs), a file every few minutes over the last hours, named and dated
// from the clock so a name stays the same file while it is listed. Content is generated from the node's
// name and state (the CallManager trace names the phones the node registers) and is the same every time
// a file is read. Folders and names follow what Cisco's TAC and RTMT documents show of a node's
// /var/log/active tree; the lab's file sizes and rotation periods are its own.
import { gzipSync } from 'node:zlib';
import type { RisState } from '../../cucm/ris/registrations.ts';
import type { VosProduct } from '../../vos/state.ts';

export interface LabLogService {
  /** The name listNodeServiceLogs gives and selectLogFiles takes: `Cisco CallManager`. */
  name: string;
  /** Where its files are on the node. */
  folder: string;
  /** A service log or a system log (listNodeServiceLogs answers them apart). */
  system?: boolean;
  /** Minutes between two files. */
  everyMinutes: number;
  /** The file name of the file with sequence number `seq` starting at `at` (epoch ms). */
  fileName: (seq: number, at: number) => string;
  gzip?: boolean;
  /** Lines of one file. */
  lines: (ctx: LineContext) => string[];
}

export interface LineContext {
  node: string;
  /** When the file starts (epoch ms). */
  at: number;
  seq: number;
  ris?: RisState;
}

/** Hours of files a node keeps for each service (older ones are gone, as trace rotation removes them). */
export const KEEP_HOURS = 6;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const day = (at: number): string => new Date(at).toISOString().slice(0, 10);
const stamp = (at: number): string => new Date(at).toISOString().replace('T', ' ').slice(0, 23);

function sdlLines(process: string, c: LineContext): string[] {
  const phones = [...(c.ris?.registrations ?? [])]
    .filter(([, regs]) => regs.some((r) => r.node === c.node && r.status === 'Registered'))
    .slice(0, 20)
    .map(([name]) => name);
  const base = [`00${pad(c.seq % 1000, 6)} |${stamp(c.at)} |${process}|SdlSig|TimerTick|restart0|${c.node}|`];
  for (const [i, phone] of phones.entries())
    base.push(
      `00${pad(c.seq % 1000, 6)}${i} |${stamp(c.at + i * 1000)} |${process}|SdlSig|StationRegister|wait|${c.node}|Device=${phone} Registered`,
    );
  return base;
}

const SDL = (id: string, seq: number): string => `SDL001_${id}_${pad(seq % 1_000_000, 6)}.txt.gz`;

const COMMON: LabLogService[] = [
  {
    name: 'Cisco Tomcat',
    folder: '/var/log/active/tomcat/logs',
    everyMinutes: 60,
    fileName: (_seq, at) => `localhost_access_log.${day(at)}-${new Date(at).getUTCHours()}.txt`,
    // An hour of requests, a few kilobytes: the biggest plain file a lab node keeps.
    lines: (c) =>
      Array.from(
        { length: 120 },
        (_, i) =>
          `127.0.0.1 - - [${stamp(c.at + i * 30_000)}] "${i % 3 === 0 ? 'GET /ccmadmin/showHome.do' : 'POST /axl/'} HTTP/1.1" 200 ${1024 + i}`,
      ),
  },
  {
    name: 'Cisco Audit Logs',
    folder: '/var/log/active/audit/AuditApp',
    everyMinutes: 60,
    fileName: (seq) => `AuditApp${pad(seq % 100_000_000, 8)}.log`,
    lines: (c) => [
      `${stamp(c.at)} |LogMessage UserID : administrator ClientAddress : 127.0.0.1 Severity : 3 EventType : UserLogging ResourceAccessed: ${c.node} EventStatus : Success`,
    ],
  },
  {
    name: 'Event Viewer-Application Log',
    folder: '/var/log/active/syslog',
    system: true,
    everyMinutes: 120,
    fileName: (seq) => `CiscoSyslog.${seq % 10}`,
    lines: (c) => [`${stamp(c.at)} ${c.node} local7 6 ccm: 1: ${c.node}: Application started`],
  },
  {
    name: 'Event Viewer-System Log',
    folder: '/var/log/active/syslog',
    system: true,
    everyMinutes: 120,
    fileName: (seq) => `messages.${seq % 10}`,
    lines: (c) => [`${stamp(c.at)} ${c.node} kernel: lab node up`],
  },
];

const BY_PRODUCT: Record<VosProduct, LabLogService[]> = {
  cucm: [
    {
      name: 'Cisco CallManager',
      folder: '/var/log/active/cm/trace/ccm/sdl',
      everyMinutes: 15,
      fileName: (seq) => SDL('100', seq),
      gzip: true,
      lines: (c) => sdlLines('CallManager', c),
    },
    {
      name: 'Cisco CTIManager',
      folder: '/var/log/active/cm/trace/cti/sdl',
      everyMinutes: 30,
      fileName: (seq) => SDL('200', seq),
      gzip: true,
      lines: (c) => sdlLines('CTIManager', c),
    },
    {
      name: 'Cisco AXL Web Service',
      folder: '/var/log/active/tomcat/logs/axl/log4j',
      everyMinutes: 60,
      fileName: (seq) => `axl${pad(seq % 100_000, 5)}.log`,
      lines: (c) => [`${stamp(c.at)} INFO [http-bio-443-exec-1] axl.AxlListener - Request received`],
    },
    ...COMMON,
  ],
  imp: [
    {
      name: 'Cisco XCP Router',
      folder: '/var/log/active/epas/trace/xcp/log',
      everyMinutes: 30,
      fileName: (seq) => `rtr-jsm-${seq % 100}.log`,
      lines: (c) => [`${stamp(c.at)} INFO [jsm] ${c.node}: session count 0`],
    },
    {
      name: 'Cisco Presence Engine',
      folder: '/var/log/active/epas/trace/epe/sdi',
      everyMinutes: 30,
      fileName: (seq) => `epe${pad(seq % 100_000_000, 8)}.txt.gz`,
      gzip: true,
      lines: (c) => [`${stamp(c.at)} DEBUG PresenceEngine ${c.node}: presence update`],
    },
    ...COMMON,
  ],
  cuc: [
    {
      name: 'Connection Conversation Manager',
      folder: '/var/log/active/cuc',
      everyMinutes: 30,
      fileName: (seq) => `diag_CuCsMgr_${pad(seq % 100_000_000, 8)}.uc`,
      lines: (c) => [`${stamp(c.at)} |CuCsMgr|${c.node}| call answered by Opening Greeting`],
    },
    {
      name: 'Connection Notifier',
      folder: '/var/log/active/cuc',
      everyMinutes: 60,
      fileName: (seq) => `diag_CuNotifier_${pad(seq % 100_000_000, 8)}.uc`,
      lines: (c) => [`${stamp(c.at)} |CuNotifier|${c.node}| MWI on`],
    },
    ...COMMON,
  ],
};

export function logServicesOf(product: VosProduct): LabLogService[] {
  return BY_PRODUCT[product];
}

export interface LabLogFile {
  service: string;
  name: string;
  path: string;
  /** When it was last written (the end of its period), epoch ms. */
  modified: number;
  content: () => Buffer;
}

/** The files of `service` on `node` modified within [from, to] (epoch ms), oldest first. */
export function filesOf(
  service: LabLogService,
  ctx: { node: string; ris?: RisState; now: number },
  from: number,
  to: number,
): LabLogFile[] {
  const period = service.everyMinutes * 60_000;
  const newest = Math.floor(ctx.now / period);
  const oldest = Math.ceil((ctx.now - KEEP_HOURS * 3_600_000) / period);
  const files: LabLogFile[] = [];
  for (let seq = oldest; seq <= newest; seq++) {
    const at = seq * period;
    // The newest file is the one being written: modified now.
    const modified = seq === newest ? ctx.now : at + period - 1000;
    if (modified < from || modified > to) continue;
    const name = service.fileName(seq, at);
    files.push({
      service: service.name,
      name,
      path: `${service.folder}/${name}`,
      modified,
      content: () => {
        const text = `${service.lines({ node: ctx.node, at, seq, ...(ctx.ris ? { ris: ctx.ris } : {}) }).join('\n')}\n`;
        return service.gzip ? gzipSync(text) : Buffer.from(text, 'utf8');
      },
    });
  }
  return files;
}
