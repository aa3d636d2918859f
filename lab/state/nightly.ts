const DAY = 86_400_000;

/**
 * When a job that runs daily at `hourUtc` started `daysAgo` runs before its latest one: always between
 * `daysAgo` and `daysAgo + 1` days before `now`, whatever the time of day, so a backup "45 days ago" reads
 * as 45 days old at 00:30 as at 23:30 (counting from today's midnight made it 44 before the job's hour).
 */
export function nightlyRunStart(now: Date, hourUtc: number, daysAgo: number): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let latest = midnight + hourUtc * 3_600_000;
  if (latest > now.getTime()) latest -= DAY;
  return new Date(latest - daysAgo * DAY);
}
