import { REVIEW_DIGEST_JOB, sendReviewDigests } from '../src/reviews/digest';
import { defineJob } from './define-job';

/** E-mails each owner the items past their review date (weekly; one message per owner per week). */
export const reviewDigestJob = defineJob({
  name: REVIEW_DIGEST_JOB,
  title: 'Review digest e-mail',
  schedule: (config) => config.schedules.reviewDigest,
  async run({ db, config, now }) {
    const r = await sendReviewDigests(db, { appUrl: config.appUrl, now });
    return `${r.items} overdue items of ${r.owners} owners; digest queued for ${r.mailed} of them.`;
  },
});
