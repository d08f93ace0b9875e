import { mailNotificationBatches } from '../src/notifications/mail-batch';
import { defineJob } from './define-job';

/**
 * One e-mail per user listing their notifications once a burst has been quiet for two minutes. It runs on the outbox's
 * schedule (MAIL_CRON, every minute by default; `off` stops both).
 */
export const notificationMailJob = defineJob({
  name: 'notification-mail',
  title: 'Notification e-mails',
  schedule: (config) => config.schedules.mail,
  async run({ db, config, now }) {
    const r = await mailNotificationBatches(db, config.appUrl, now);
    return `Queued ${r.messages} notification e-mails for ${r.users} users.`;
  },
});
