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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The `To:` date of `show cert own <file>` (`To:   Wed Dec 02 07:39:25 UTC 2026`), or undefined. A node
 * prints its own time zone (`Tue Mar  9 02:19:31 PDT 2021`); the abbreviation is read as UTC, an error of
 * hours that does not matter to the day-scale thresholds the checks apply.
 */
export function certNotAfter(output: string): Date | undefined {
  const m =
    /\bTo:\s+\w{3}\s+(\w{3})\s+(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) [A-Z][A-Za-z0-9+-]{1,5} (\d{4})/.exec(
      output,
    );
  const month = MONTHS.indexOf(m?.[1] ?? '');
  if (!m || month < 0) return undefined;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])));
}
