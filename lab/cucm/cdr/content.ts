// What a lab CDR or CMR file holds: the calls that ended in its minute between the lab's phones, written
// as the Call Detail Records Administration Guide describes the flat files (comma-separated, a line of
// field names, a line of their types, then one record per line, strings in double quotes). The fields
// are a subset of the guide's CDR and CMR field tables, in their order: globalCallID_callId,
// dateTimeOrigination, callingPartyNumber, origCause_value, destCause_value, dateTimeConnect,
// dateTimeDisconnect, duration, origDeviceName, destDeviceName... for CDRs; numberPacketsLost, jitter,
// latency, deviceName, varVQMetrics, duration... for CMRs (header as a CUCM writes it, quoted in public
// CDR scripts). Causes are Q.850 values the guide's "Call Termination Cause Codes" table lists.

export interface CdrPhone {
  name: string;
  dn: string;
}

const CDR_FIELDS: [string, string][] = [
  ['cdrRecordType', 'INTEGER'],
  ['globalCallID_callManagerId', 'INTEGER'],
  ['globalCallID_callId', 'INTEGER'],
  ['origLegCallIdentifier', 'INTEGER'],
  ['dateTimeOrigination', 'INTEGER'],
  ['origNodeId', 'INTEGER'],
  ['callingPartyNumber', 'VARCHAR(50)'],
  ['origCause_location', 'INTEGER'],
  ['origCause_value', 'INTEGER'],
  ['destLegIdentifier', 'INTEGER'],
  ['destNodeId', 'INTEGER'],
  ['originalCalledPartyNumber', 'VARCHAR(50)'],
  ['finalCalledPartyNumber', 'VARCHAR(50)'],
  ['destCause_location', 'INTEGER'],
  ['destCause_value', 'INTEGER'],
  ['dateTimeConnect', 'INTEGER'],
  ['dateTimeDisconnect', 'INTEGER'],
  ['pkid', 'UNIQUEIDENTIFIER'],
  ['duration', 'INTEGER'],
  ['origDeviceName', 'VARCHAR(129)'],
  ['destDeviceName', 'VARCHAR(129)'],
  ['globalCallId_ClusterID', 'VARCHAR(50)'],
];

const CMR_FIELDS: [string, string][] = [
  ['cdrRecordType', 'INTEGER'],
  ['globalCallID_callManagerId', 'INTEGER'],
  ['globalCallID_callId', 'INTEGER'],
  ['nodeId', 'INTEGER'],
  ['directoryNum', 'VARCHAR(50)'],
  ['callIdentifier', 'INTEGER'],
  ['dateTimeStamp', 'INTEGER'],
  ['numberPacketsSent', 'INTEGER'],
  ['numberOctetsSent', 'INTEGER'],
  ['numberPacketsReceived', 'INTEGER'],
  ['numberOctetsReceived', 'INTEGER'],
  ['numberPacketsLost', 'INTEGER'],
  ['jitter', 'INTEGER'],
  ['latency', 'INTEGER'],
  ['pkid', 'UNIQUEIDENTIFIER'],
  ['directoryNumPartition', 'VARCHAR(50)'],
  ['globalCallId_ClusterID', 'VARCHAR(50)'],
  ['deviceName', 'VARCHAR(129)'],
  ['varVQMetrics', 'VARCHAR(600)'],
  ['duration', 'INTEGER'],
];

/** One ended call: who, when and why it ended. */
export interface LabCall {
  callId: number;
  nodeId: number;
  from: CdrPhone;
  to: CdrPhone;
  /** Epoch seconds. */
  origination: number;
  connect: number;
  disconnect: number;
  origCause: number;
  destCause: number;
}

/** The calls of one minute, from its hash: mostly answered and hung up, some busy, unanswered or failed. */
export function callsOf(
  minute: number,
  hash: number,
  nodeId: number,
  phones: readonly CdrPhone[],
): LabCall[] {
  const n = 1 + ((hash >>> 12) % 3);
  const out: LabCall[] = [];
  for (let k = 0; k < n && phones.length > 1; k++) {
    const h = (hash >>> (k * 5)) ^ (minute * 2654435761);
    const a = Math.abs(h) % phones.length;
    const b = (a + 1 + (Math.abs(h >>> 7) % (phones.length - 1))) % phones.length;
    const outcome = Math.abs(h >>> 3) % 20;
    const origination = minute * 60 - 180 + (Math.abs(h) % 170);
    // 16 normal clearing, 17 user busy, 19 no answer, 41 temporary failure (Q.850).
    const [origCause, destCause, talk] =
      outcome < 14
        ? [16, 0, 20 + (Math.abs(h >>> 9) % 150)]
        : outcome < 17
          ? [0, 17, 0]
          : outcome < 19
            ? [0, 19, 0]
            : [41, 41, 0];
    const connect = talk > 0 ? origination + 4 : 0;
    out.push({
      callId: 1_000_000 + minute * 4 + k,
      nodeId,
      from: phones[a] as CdrPhone,
      to: phones[b] as CdrPhone,
      origination,
      connect,
      disconnect: talk > 0 ? connect + talk : origination + 10,
      origCause,
      destCause,
    });
  }
  return out;
}

const q = (s: string): string => `"${s.replace(/"/g, '""')}"`;

function pkid(callId: number, leg: number): string {
  const hex = (callId * 16 + leg).toString(16).padStart(12, '0');
  return `6a1f0c3e-0b2d-4c5e-9f10-${hex.slice(-12)}`;
}

function lines(fields: [string, string][], records: (string | number)[][]): string {
  const head = fields.map(([n]) => q(n)).join(',');
  const types = fields.map(([, t]) => t).join(',');
  const rows = records.map((r) =>
    r.map((v, i) => (fields[i]?.[1] === 'INTEGER' ? String(v) : q(String(v)))).join(','),
  );
  return `${[head, types, ...rows].join('\n')}\n`;
}

export function cdrCsv(calls: readonly LabCall[], clusterId: string): string {
  return lines(
    CDR_FIELDS,
    calls.map((c) => [
      1,
      c.nodeId,
      c.callId,
      c.callId * 2,
      c.origination,
      c.nodeId,
      c.from.dn,
      0,
      c.origCause,
      c.callId * 2 + 1,
      c.nodeId,
      c.to.dn,
      c.to.dn,
      0,
      c.destCause,
      c.connect,
      c.disconnect,
      pkid(c.callId, 0),
      c.connect > 0 ? c.disconnect - c.connect : 0,
      c.from.name,
      c.to.name,
      clusterId,
    ]),
  );
}

export function cmrCsv(calls: readonly LabCall[], clusterId: string): string {
  return lines(
    CMR_FIELDS,
    calls
      .filter((c) => c.connect > 0)
      .flatMap((c) =>
        [c.from, c.to].map((p, leg) => {
          const talk = c.disconnect - c.connect;
          const packets = talk * 50;
          const lost = (c.callId + leg) % 7 === 0 ? Math.floor(packets / 40) : (c.callId + leg) % 3;
          return [
            2,
            c.nodeId,
            c.callId,
            c.nodeId,
            p.dn,
            c.callId * 2 + leg,
            c.disconnect,
            packets,
            packets * 160,
            packets - lost,
            (packets - lost) * 160,
            lost,
            lost > 10 ? 38 : 4,
            lost > 10 ? 120 : 12,
            pkid(c.callId, leg + 1),
            'Internal_PT',
            clusterId,
            p.name,
            `MLQK=${lost > 10 ? '3.1000' : '4.4000'};MLQKav=${lost > 10 ? '3.3000' : '4.4000'};ICR=0.0000;CCR=${lost > 10 ? '0.0450' : '0.0000'};CS=${lost > 10 ? 6 : 0};SCS=${lost > 10 ? 3 : 0}`,
            talk,
          ];
        }),
      ),
  );
}
