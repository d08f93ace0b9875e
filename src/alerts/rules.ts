import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { alertDeliveries, alertRules, alerts, servers, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { AlertRuleInput } from './schemas';
import { type WebhookFormatName, webhookFormatOf, webhookUrlProblem } from './shared';

/** Alert rules: who hears about which servers, through which channel (admins keep them, every change audited). */

export interface AlertRule {
  id: string;
  name: string;
  enabled: boolean;
  environment: string | null;
  teamOwner: string | null;
  tag: string | null;
  channel: AlertRuleInput['channel'];
  userIds: string[];
  webhookUrl: string | null;
  webhookFormat: WebhookFormatName | null;
  repeatMinutes: number;
  sendRecovery: boolean;
  createdAt: string;
}

type Row = typeof alertRules.$inferSelect;

const toRule = (r: Row): AlertRule => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  environment: r.environment,
  teamOwner: r.teamOwner,
  tag: r.tag,
  channel: r.channel,
  userIds: r.userIds,
  webhookUrl: r.webhookUrl,
  webhookFormat: r.webhookFormat,
  repeatMinutes: r.repeatMinutes,
  sendRecovery: r.sendRecovery,
  createdAt: new Date(r.createdAt).toISOString(),
});

export async function listAlertRules(db: Db): Promise<AlertRule[]> {
  return (await db.select().from(alertRules).orderBy(alertRules.name, alertRules.createdAt)).map(toRule);
}

/** Every recipient must be an existing, active account (400 naming the first that is not). */
async function checkRecipients(db: Db, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.accountStatus, 'active')));
  const active = new Set(found.map((u) => u.id));
  const missing = userIds.find((id) => !active.has(id));
  if (missing) throw badRequest(`userIds: ${missing} is not an active user.`, 'validation_error');
}

/** What the rule stores for its channel: recipients for e-mail and push, the URL and its body format for webhooks. */
async function channelFields(db: Db, input: AlertRuleInput, webhookHosts: readonly string[]) {
  if (input.channel !== 'webhook') {
    const userIds = [...new Set(input.userIds)];
    await checkRecipients(db, userIds);
    return { userIds, webhookUrl: null, webhookFormat: null };
  }
  const url = input.webhookUrl ?? '';
  const problem = webhookUrlProblem(url, webhookHosts);
  if (problem) throw badRequest(problem, 'validation_error');
  return { userIds: [], webhookUrl: url, webhookFormat: input.webhookFormat ?? webhookFormatOf(url) };
}

export async function createAlertRule(
  db: Db,
  input: AlertRuleInput,
  actorId: string,
  webhookHosts: readonly string[],
): Promise<AlertRule> {
  const fields = await channelFields(db, input, webhookHosts);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(alertRules)
      .values({
        name: input.name,
        enabled: input.enabled,
        environment: input.environment,
        teamOwner: input.teamOwner,
        tag: input.tag,
        channel: input.channel,
        repeatMinutes: input.repeatMinutes,
        sendRecovery: input.sendRecovery,
        createdBy: actorId,
        ...fields,
      })
      .returning();
    const rule = toRule(row);
    const { webhookUrl, ...details } = rule;
    await recordAudit(tx, {
      actorId,
      action: 'alert_rule.created',
      entityType: 'alert_rule',
      entityId: rule.id,
      details: { ...details, webhookHost: webhookUrl ? new URL(webhookUrl).hostname : null },
    });
    return rule;
  });
}

/** Deletes a rule; its alerts and queued deliveries go with it. */
export async function deleteAlertRule(db: Db, id: string, actorId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(alertRules).where(eq(alertRules.id, id)).returning();
    if (!row) throw notFound('Alert rule not found.');
    await recordAudit(tx, {
      actorId,
      action: 'alert_rule.deleted',
      entityType: 'alert_rule',
      entityId: id,
      details: { name: row.name, channel: row.channel },
    });
  });
}

/** A delivery given up on, for the rules page. */
export interface FailedDelivery {
  id: string;
  ruleId: string;
  serverName: string;
  kind: string;
  channel: string;
  recipient: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export async function listFailedDeliveries(db: Db, limit = 50): Promise<FailedDelivery[]> {
  const rows = await db
    .select({
      id: alertDeliveries.id,
      ruleId: alerts.ruleId,
      serverName: servers.name,
      kind: alertDeliveries.kind,
      channel: alertDeliveries.channel,
      recipient: users.email,
      attempts: alertDeliveries.attempts,
      lastError: alertDeliveries.lastError,
      createdAt: alertDeliveries.createdAt,
    })
    .from(alertDeliveries)
    .innerJoin(alerts, eq(alerts.id, alertDeliveries.alertId))
    .innerJoin(servers, eq(servers.id, alerts.serverId))
    .leftJoin(users, eq(users.id, alertDeliveries.userId))
    .where(eq(alertDeliveries.status, 'failed'))
    .orderBy(desc(alertDeliveries.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
}

/** Active accounts a rule may name, for the page's recipient picker. */
export async function activeUsers(db: Db) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: sql<string>`trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, ''))`,
    })
    .from(users)
    .where(eq(users.accountStatus, 'active'))
    .orderBy(users.email);
}
