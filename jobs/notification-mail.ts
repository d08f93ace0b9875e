import { mailNotificationBatches } from '../src/notifications/mail-batch';
import { defineJob } from './define-job';

/** Every minute: one e-mail per user listing their notifications once a burst has been quiet for two minutes. */
export const notificationMailJob = defineJob({
  name: 'notification-mail',
  title: 'Notification e-mails',
  schedule: () => '* * * * *',
  async run({ db, config, now }) {
    const r = await mailNotificationBatches(db, config.appUrl, now);
    return `Queued ${r.messages} notification e-mails for ${r.users} users.`;
  },
});
