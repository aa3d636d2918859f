// The dates of Log Collection's selectLogFiles: FromDate and ToDate as "MM/dd/yy hh:mm AM" in the zone
// TimeZone names ("Client: (GMT+0:0)Greenwich Mean Time-Europe/London", the form the public
// sieteunoseis/cisco-dime client sends, its zone the IANA name after the first "-"), and a File's
// modifiedDate written as Java's Date.toString writes it ("Thu Nov 26 07:12:02 UTC 2026"; the lab's
// reading of the answers public clients print, not confirmed by a Cisco document).

const WALL = /^(\d{2})\/(\d{2})\/(\d{2}) (\d{1,2}):(\d{2}) ([AP]M)$/i;

/** The IANA zone TimeZone names; '' gives UTC (the lab's nodes run in UTC). Undefined when unreadable. */
export function zoneOf(timeZone: string): string | undefined {
  const t = timeZone.trim();
  if (t === '') return 'UTC';
  const m = /\)[^-]*-(.+)$/.exec(t);
  const zone = m?.[1]?.trim();
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** Milliseconds `zone` is ahead of UTC at the instant `at`. */
function offsetAt(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant of "MM/dd/yy hh:mm AM" in `zone`; undefined when it is not that form. */
export function parseWallDate(text: string, zone: string): number | undefined {
  const m = WALL.exec(text.trim());
  if (!m) return undefined;
  const [, mm, dd, yy, hh, min, ampm] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const hour = (Number(hh) % 12) + (ampm.toUpperCase() === 'PM' ? 12 : 0);
  const wall = Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd), hour, Number(min));
  if (Number(mm) < 1 || Number(mm) > 12 || Number(dd) < 1 || Number(dd) > 31 || Number(hh) > 12)
    return undefined;
  const guess = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, guess);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Thu Nov 26 07:12:02 UTC 2026`. */
export function javaDate(at: number): string {
  const d = new Date(at);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}
