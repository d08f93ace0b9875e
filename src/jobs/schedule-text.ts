import { describeSchedule } from '../../jobs/scheduler';

/** The timezone cron schedules run in: node-cron uses this process's clock (TZ, usually UTC in production). */
export const serverTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** "18:00": hours and minutes of `at` in `timeZone` (24-hour, like the schedule texts). */
function clockTime(at: Date, timeZone: string): string {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
    clockFormats.set(timeZone, format);
  }
  return format.format(at);
}

/**
 * A schedule in words in the reader's timezone: "Daily at 07:00" on a UTC server reads "Daily at 18:00" in
 * Australia/Sydney. The times come from the next run (`nextRun`), so daylight saving is as it will be then.
 * Null when the schedule has no common shape.
 */
export function scheduleTextIn(expression: string, nextRun: Date | null, timeZone: string): string | null {
  const text = describeSchedule(expression);
  if (!text || !nextRun) return text;
  const [hours, minutes] = clockTime(nextRun, timeZone).split(':');
  if (text.startsWith('Daily at ')) return `Daily at ${hours}:${minutes}`;
  if (text.startsWith('Hourly at ')) return `Hourly at :${minutes}`;
  return text; // "Every N minutes" reads the same in every timezone
}
