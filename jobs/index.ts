import { auditRetentionJob } from './audit-retention';
import type { JobDefinition } from './define-job';
import { healthChecksJob } from './health-checks';
import { healthReportJob } from './health-report';
import { mailDeliveryJob } from './mail-delivery';
import { notificationMailJob } from './notification-mail';
import { reviewDigestJob } from './review-digest';
import { tokenExpiryJob } from './token-expiry';

/** Every job, in the order /admin/jobs lists them. */
export const allJobs: JobDefinition[] = [
  healthChecksJob,
  mailDeliveryJob,
  notificationMailJob,
  tokenExpiryJob,
  healthReportJob,
  reviewDigestJob,
  auditRetentionJob,
];
