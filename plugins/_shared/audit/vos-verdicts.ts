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

// The `show cert own` To: parser is shared with the `*_cert_list` tools (plugins/_shared/vos/cert-output.ts).
export { certNotAfter } from '../vos/cert-output.ts';

/** `utils fips status`: 'off' for NON-FIPS, 'on' for operating in FIPS mode, undefined for anything else. */
export function fipsState(out: string): 'on' | 'off' | undefined {
  // NON-FIPS first: "operating in NON-FIPS Mode" must never read as FIPS.
  if (/\bNON-FIPS\b/i.test(out)) return 'off';
  return /\boperating in FIPS mode\b/i.test(out) ? 'on' : undefined;
}

/** `utils fips status` judged: NON-FIPS is a finding, FIPS a pass, any other answer cannot be judged. */
export function fipsVerdict(out: string): string | undefined {
  const state = fipsState(out);
  if (state === 'off') return 'the node operates in NON-FIPS mode';
  return state === 'on' ? undefined : cannotJudge(`FIPS status: unrecognised answer: ${excerpt(out)}`);
}

/** What the FIPS checks read: no public text shows the lines `utils fips status` prints. */
export const FIPS_STATUS_UNVERIFIED =
  'the command `utils fips status` is documented for the three products (CLI reference, security guides), the lines it prints are not: the check reads "NON-FIPS" as off and "operating in FIPS mode" as on; any other answer leaves it not assessed, never passed.';

/**
 * `show password expiry maximum-age|minimum-age`: the days of `... set to <n> day(s)`, 0 for
 * `... disabled`, undefined for anything else. A number wins over the word, so a line that names both
 * is read by its value.
 */
export function passwordAgeDays(out: string): number | undefined {
  const days = /\bset to (\d+) days?\b/i.exec(out)?.[1];
  if (days !== undefined) return Number(days);
  return /\bdisabled\b/i.test(out) ? 0 : undefined;
}

/** What the password-age checks read: the CLI reference documents the command, not its answer. */
export const PASSWORD_AGE_UNVERIFIED =
  'the command `show password expiry maximum-age|minimum-age` is documented (CLI reference, show password expiry), the lines it prints are not: the check reads "set to <n> day(s)" as the age and "disabled" as none; any other answer leaves it not assessed, never passed.';
