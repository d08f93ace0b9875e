import { alertsJob } from './alerts';
import { auditRetentionJob } from './audit-retention';
import { backupJob } from './backup';
import type { JobDefinition } from './define-job';
import { embeddingsJob } from './embeddings';
import { healthChecksJob } from './health-checks';
import { healthReportJob } from './health-report';
import { healthRollupJob } from './health-rollup';
import { importJobsJob } from './import-jobs';
import { mailDeliveryJob } from './mail-delivery';
import { notificationMailJob } from './notification-mail';
import { reviewDigestJob } from './review-digest';
import { tokenExpiryJob } from './token-expiry';
import { webhooksJob } from './webhooks';

/** Every job, in the order /admin/jobs lists them. */
export const allJobs: JobDefinition[] = [
  healthChecksJob,
  mailDeliveryJob,
  alertsJob,
  webhooksJob,
  notificationMailJob,
  tokenExpiryJob,
  healthRollupJob,
  healthReportJob,
  reviewDigestJob,
  auditRetentionJob,
  importJobsJob,
  backupJob,
  embeddingsJob,
];
