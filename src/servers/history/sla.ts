import { sql } from 'drizzle-orm';
import { recordAudit } from '../../audit/service';
import { queryRows, type Db } from '../../db/client';
import { environments, slaTargets, type Environment } from '../../db/schema';
import { availability, periodStarts } from './periods';

/** Each environment's availability target in percent (null: none set). */
export type SlaTargets = Record<Environment, number | null>;

/** A server whose 30-day uptime is below its environment's target. */
export interface SlaMiss {
  id: string;
  name: string;
  environment: Environment;
  uptime30d: number;
  target: number;
}

export async function listSlaTargets(db: Db): Promise<SlaTargets> {
  const rows = await db.select().from(slaTargets);
  const targets = Object.fromEntries(environments.map((e) => [e, null])) as SlaTargets;
  for (const r of rows) targets[r.environment] = r.targetPct;
  return targets;
}

/** Sets the targets named in `changes` (null removes one), audited; answers every environment's target. */
export async function setSlaTargets(db: Db, changes: Partial<SlaTargets>, actorId: string | null): Promise<SlaTargets> {
  await db.transaction(async (tx) => {
    for (const [environment, target] of Object.entries(changes) as [Environment, number | null][]) {
      if (target === null) await tx.delete(slaTargets).where(sql`${slaTargets.environment} = ${environment}`);
      else
        await tx
          .insert(slaTargets)
          .values({ environment, targetPct: target })
          .onConflictDoUpdate({ target: slaTargets.environment, set: { targetPct: target, updatedAt: new Date() } });
    }
    await recordAudit(tx, {
      actorId,
      action: 'sla_targets.update',
      entityType: 'sla_targets',
      details: { changes },
    });
  });
  return listSlaTargets(db);
}

/** The servers below their environment's target over 30 days (as the last rollup run computed it), worst first. */
export async function slaMisses(db: Db, limit = 200): Promise<SlaMiss[]> {
  const rows = await queryRows<{ id: string; name: string; environment: Environment; pct: unknown; target: unknown }>(
    db,
    sql`select s.id, s.name, s.environment, u.pct_30d as pct, t.target_pct as target
        from server_uptime u
        join servers s on s.id = u.server_id
        join sla_targets t on t.environment = s.environment
        where u.pct_30d < t.target_pct
        order by u.pct_30d, s.name
        limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    environment: r.environment,
    uptime30d: Number(r.pct),
    target: Number(r.target),
  }));
}

/** The 30-day availability of each environment: its servers' checks together (null: no checks). */
export async function environmentUptime(db: Db, now = new Date()): Promise<Record<Environment, number | null>> {
  const from = periodStarts(now).days['30d'];
  const rows = await queryRows<{ environment: Environment; up: unknown; counted: unknown }>(
    db,
    sql`select s.environment, sum(d.online + d.warning) as up, sum(d.checks - d.maintenance) as counted
        from health_daily d join servers s on s.id = d.server_id
        where d.day >= ${from}::date
        group by s.environment`,
  );
  const result = Object.fromEntries(environments.map((e) => [e, null])) as Record<Environment, number | null>;
  for (const r of rows) result[r.environment] = availability(Number(r.up ?? 0), Number(r.counted ?? 0));
  return result;
}

/** One environment's target (null: none set). */
export async function slaTargetOf(db: Db, environment: Environment): Promise<number | null> {
  const [row] = await db.select().from(slaTargets).where(sql`${slaTargets.environment} = ${environment}`);
  return row?.targetPct ?? null;
}
