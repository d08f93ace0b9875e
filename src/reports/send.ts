import type { Db } from '../db/client';
import { enqueueMail } from '../mail/service';
import { healthReportMail } from './email';
import { buildFleetReport, reportRecipients, withRunbooks } from './service';

/**
 * Queues today's report for every recipient (one message per recipient per UTC day, however often it runs);
 * each copy lists only the runbooks its recipient may read.
 */
export async function sendHealthReports(db: Db, opts: { appUrl: string; now?: Date }) {
  const now = opts.now ?? new Date();
  const fleet = await buildFleetReport(db, { now });
  const recipients = await reportRecipients(db);
  const day = now.toISOString().slice(0, 10);
  for (const r of recipients) {
    const report = await withRunbooks(db, fleet, r);
    const mail = healthReportMail(report, { appUrl: opts.appUrl, firstName: r.firstName, timeZone: r.timezone });
    await enqueueMail(db, { dedupeKey: `health-report:${r.id}:${day}`, to: r.email, ...mail });
  }
  return { recipients: recipients.length, servers: fleet.total };
}
