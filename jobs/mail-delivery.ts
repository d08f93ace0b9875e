import { deliverDueMail } from '../src/mail/deliver';
import { defineJob } from './define-job';

/** Sends the due outbox messages; failures are retried with backoff, and marked failed after 10 attempts or at once when refused for good (5xx). */
export const mailDeliveryJob = defineJob({
  name: 'mail-delivery',
  title: 'E-mail delivery',
  schedule: (config) => config.schedules.mail,
  async run({ db, config, logger, signal }) {
    let total = { sent: 0, failed: 0, retried: 0 };
    // Drain in batches until nothing more is due (or we are asked to stop).
    for (let round = 0; round < 20 && !signal.aborted; round++) {
      const r = await deliverDueMail({ db, config, logger });
      total = { sent: total.sent + r.sent, failed: total.failed + r.failed, retried: total.retried + r.retried };
      if (r.sent + r.failed + r.retried === 0) break;
    }
    return `Sent ${total.sent}, will retry ${total.retried}, failed ${total.failed}.`;
  },
});
