import type { Db } from '../db/client';
import { enqueueMail } from '../mail/service';
import { healthReportMail } from './email';
import { buildFleetReport, reportRecipients, withReaderSections, type FleetReport } from './service';

/**
 * Queues today's report for every recipient (one message per recipient per UTC day, however often it runs). The
 * fleet part is built once per team scope; each copy lists only the documents its recipient may read.
 */
export async function sendHealthReports(db: Db, opts: { appUrl: string; now?: Date }) {
  const now = opts.now ?? new Date();
  const all = await buildFleetReport(db, { now });
  const byTeam = new Map<string | null, FleetReport>([[null, all]]);
  const recipients = await reportRecipients(db);
  const day = now.toISOString().slice(0, 10);
  for (const r of recipients) {
    let fleet = byTeam.get(r.reportTeam);
    if (!fleet) {
      fleet = await buildFleetReport(db, { now, since: all.since, team: r.reportTeam });
      byTeam.set(r.reportTeam, fleet);
    }
    const report = await withReaderSections(db, fleet, r);
    const mail = healthReportMail(report, { appUrl: opts.appUrl, firstName: r.firstName, timeZone: r.timezone });
    await enqueueMail(db, { dedupeKey: `health-report:${r.id}:${day}`, to: r.email, ...mail });
  }
  return { recipients: recipients.length, servers: all.total };
}
