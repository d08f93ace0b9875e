/**
 * Alerts as other features and the job use them: the hook of the announced status changes, the delivery run,
 * and the queries the pages read.
 */
export { type AlertChangesResult, recordAlertChanges } from './record';
export { type AlertDeps, type AlertRunResult, runAlerts } from './deliver';
export { acknowledgeAlert, type AlertDetail, getAlert, listOpenAlerts, type OpenAlert } from './open-alerts';
export {
  activeUsers,
  type AlertRule,
  createAlertRule,
  deleteAlertRule,
  type FailedDelivery,
  listAlertRules,
  listFailedDeliveries,
} from './rules';
