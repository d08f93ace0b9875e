import { pruneAuditTrail } from '../src/audit/service';
import { defineJob } from './define-job';

/** Deletes audit events older than AUDIT_RETENTION_DAYS, in batches (the only delete the trail allows). */
export const auditRetentionJob = defineJob({
  name: 'audit-retention',
  title: 'Audit trail retention',
  schedule: (config) => config.schedules.auditRetention,
  async run({ db, config, now, signal }) {
    const deleted = await pruneAuditTrail(db, { days: config.auditRetentionDays, now, signal });
    return `Deleted ${deleted} audit events older than ${config.auditRetentionDays} days.`;
  },
});
