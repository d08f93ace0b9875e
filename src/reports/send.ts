import type { Db } from '../db/client';
import { enqueueMail } from '../mail/service';
import { healthReportMail } from './email';
import { buildHealthReport, reportRecipients } from './service';

/** Queues today's report for every recipient (one message per recipient per UTC day, however often it runs). */
export async function sendHealthReports(db: Db, opts: { appUrl: string; now?: Date }) {
  const now = opts.now ?? new Date();
  const report = await buildHealthReport(db, { now });
  const recipients = await reportRecipients(db);
  const day = now.toISOString().slice(0, 10);
  for (const r of recipients) {
    const mail = healthReportMail(report, { appUrl: opts.appUrl, firstName: r.firstName, timeZone: r.timezone });
    await enqueueMail(db, { dedupeKey: `health-report:${r.id}:${day}`, to: r.email, ...mail });
  }
  return { recipients: recipients.length, servers: report.total };
}
