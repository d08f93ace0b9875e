/** A datetime-local value ("2026-11-27T14:30"), read as wall-clock time in `timeZone`: the instant, or null. */
export function wallTimeToInstant(value: string, timeZone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  // Date.UTC reads years 0-99 as 19xx, and rolls "2026-02-30T25:00" over into March: only a real date and time is one.
  const back = new Date(Date.UTC(2000, mo - 1, d, h, mi));
  back.setUTCFullYear(y, mo - 1, d);
  const wall = back.getTime();
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  if (back.getUTCHours() !== h || back.getUTCMinutes() !== mi) return null;
  // The zone's offset at an instant; asked twice so a wall time next to a DST change lands right.
  const offsetAt = (t: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(t));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const at = new Date(Date.UTC(2000, 0, 1, get('hour'), get('minute'), get('second')));
    at.setUTCFullYear(get('year'), get('month') - 1, get('day'));
    return at.getTime() - t;
  };
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}
