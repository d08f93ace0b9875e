import { sendHealthReports } from '../src/reports/send';
import { HEALTH_REPORT_JOB } from '../src/reports/service';
import { defineJob } from './define-job';

/** E-mails the daily fleet summary to admins and to users who opted in (one per recipient per day). */
export const healthReportJob = defineJob({
  name: HEALTH_REPORT_JOB,
  title: 'Health report e-mail',
  schedule: (config) => config.schedules.healthReport,
  async run({ db, config, now }) {
    const r = await sendHealthReports(db, { appUrl: config.appUrl, now });
    return `Queued the health report (${r.servers} servers) for ${r.recipients} recipients.`;
  },
});
