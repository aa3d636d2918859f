// Verdicts on VOS CLI answers that read the same on CUCM, IM and Presence and Unity Connection, so the
// three audits judge one command one way: a weakness when the answer says so, a pass when it says the
// opposite, and "cannot judge" for an answer in neither form.
import { cannotJudge, excerpt } from './checklist.ts';

/** `utils ntp status`: ntpstat's "unsynchronised" (a finding), "synchronised to NTP server" (a pass). */
export function ntpVerdict(out: string): string | undefined {
  // Word boundaries keep "synchronised" from matching inside "unsynchronised"; ntpstat's verdict is
  // that line and the indented lines under it (not the clock lines the VOS command prints after).
  const status = /\bunsynchroni[sz]ed\b.*(?:\r?\n[ \t]+\S.*)*/i.exec(out)?.[0];
  if (status) return `NTP is not synchronised: ${excerpt(status)}`;
  if (/\bsynchroni[sz]ed to NTP server\b/i.test(out)) return undefined;
  return cannotJudge(`NTP synchronisation: unrecognised answer: ${excerpt(out)}`);
}
