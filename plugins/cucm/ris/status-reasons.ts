// RisPort70 StatusReason numbers and what they mean: the reason codes of CUCM's device unregistration
// alarm (0 when the device is registered). An agent reads the meaning; the number stays for scripts.

const REASONS: Record<number, string> = {
  0: 'registered (no unregistration reason)',
  1: 'unknown',
  2: 'no entry in the database',
  3: 'database configuration error',
  4: 'device name unresolvable',
  5: 'maximum device registrations exceeded',
  6: 'connectivity error',
  7: 'initialization error',
  8: 'device initiated reset',
  9: 'CallManager reset',
  10: 'device unregistered',
  11: 'malformed register message',
  12: 'SCCP device throttling',
  13: 'keep-alive timeout',
  14: 'configuration mismatch',
  15: 'CallManager restart',
  16: 'duplicate registration',
  17: 'CallManager apply config',
  18: 'device did not respond',
  19: 'Extension Mobility login/logout',
  20: 'EMCC login/logout',
  21: 'EnergyWise power save plus',
  22: 'CallManager forced restart',
  23: 'source IP address changed',
  24: 'source port changed',
  25: 'registration sequence error',
  26: 'invalid capabilities',
  27: 'fallback initiated',
  28: 'device switch',
  29: 'device wipe',
  30: 'device forced shutdown',
};

export interface StatusReason {
  code: number | null;
  meaning: string;
}

export function statusReason(raw: string | undefined): StatusReason {
  if (raw === undefined || raw.trim() === '') return { code: null, meaning: 'not reported' };
  const code = Number(raw);
  if (!Number.isInteger(code)) return { code: null, meaning: `unreadable reason "${raw.slice(0, 32)}"` };
  return { code, meaning: REASONS[code] ?? `reason code ${code} (not documented)` };
}
