import { asc, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { type CheckResultEntry, type healthChecks, serverChecks } from '../db/schema';
import type { CheckStatus } from '../db/schema/values';
import { badRequest } from '../http/errors';
import { implicitCheck } from './probes';
import { withDeadline } from './probes/deadline';
import { connectsToTarget, resolveTarget } from './probes/targets';
import type { CheckSpec, TargetPolicy } from './probes/types';
import { type CheckInput, checkLabel, type Server, type ServerCheck } from './schemas';
import { lockServer, newestHealthRows, requireServer } from './service';

/*
 * A server's checks (issue 24): its explicit server_checks rows in order, or else its implicit tcp check on
 * monitorPort (id null, none without an address), each with its results from the newest health_checks rows.
 */

type CheckRow = typeof serverChecks.$inferSelect;
type HealthRow = Pick<typeof healthChecks.$inferSelect, 'checkedAt' | 'status' | 'latencyMs' | 'error' | 'results'>;

/** One check's result in one round; `detail` (raw socket/TLS error) is for admins only. */
export interface CheckResult {
  checkedAt: string;
  status: CheckStatus;
  latencyMs: number | null;
  error: string | null;
  detail: string | null;
}

/** A check with its last result and its recent results (newest first): the detail page's Checks card. */
export interface CheckBoardEntry {
  check: ServerCheck;
  last: CheckResult | null;
  history: CheckResult[];
}

/** Health rows a GET reads (the newest decides lastStatus) and the detail page's history length. */
export const CHECK_HISTORY_LENGTH = 20;

const specOf = (r: Omit<CheckRow, 'serverId' | 'position' | 'createdAt'>): CheckSpec => ({
  id: r.id,
  kind: r.kind,
  target: r.target,
  port: r.port,
  path: r.path,
  expectStatus: r.expectStatus,
  expectText: r.expectText,
  warnDays: r.warnDays,
  expectAddress: r.expectAddress,
});

/** What the server is checked by: its explicit checks in order, or its implicit one (none without an address). */
export async function checkSpecsOf(db: Db, server: Server): Promise<CheckSpec[]> {
  const rows = await db
    .select()
    .from(serverChecks)
    .where(eq(serverChecks.serverId, server.id))
    .orderBy(asc(serverChecks.position), asc(serverChecks.createdAt));
  return specsOf(server, rows);
}

/** The checks from the server's rows already read (in order): those, or its implicit one. */
export function specsOf(server: Server, rows: Omit<CheckRow, 'serverId' | 'position' | 'createdAt'>[]): CheckSpec[] {
  if (rows.length) return rows.map(specOf);
  const implicit = implicitCheck(server);
  return implicit ? [implicit] : [];
}

/** Rows from before check kinds (results null) speak for the implicit check only. */
const LEGACY_STATUS: Record<string, CheckStatus | undefined> = { online: 'ok', warning: 'ok', offline: 'failing' };

/** The check's result in one health row, or null when the row has none for it. */
export function resultIn(row: HealthRow, checkId: string | null): CheckResult | null {
  const checkedAt = new Date(row.checkedAt).toISOString();
  if (row.results) {
    const entry = row.results.find((e: CheckResultEntry) => e.checkId === checkId);
    if (!entry) return null;
    const { status, latencyMs, error } = entry;
    return { checkedAt, status, latencyMs, error, detail: entry.detail ?? null };
  }
  const status = checkId === null ? LEGACY_STATUS[row.status] : undefined;
  return status ? { checkedAt, status, latencyMs: row.latencyMs, error: row.error, detail: null } : null;
}

function toServerCheck(spec: CheckSpec, last: CheckResult | null): ServerCheck {
  return {
    ...spec,
    lastStatus: last?.status ?? null,
    lastCheckedAt: last?.checkedAt ?? null,
    lastError: last?.error ?? null,
  };
}

/** Each check with its last result (the newest health row) and its results in the newest `rounds` rows. */
export async function checkBoard(db: Db, server: Server, rounds = CHECK_HISTORY_LENGTH): Promise<CheckBoardEntry[]> {
  const [specs, rows] = await Promise.all([checkSpecsOf(db, server), newestHealthRows(db, server.id, rounds)]);
  return boardOf(specs, rows);
}

/** The board from checks and health rows already read (newest first; the first CHECK_HISTORY_LENGTH are used). */
export function boardOf(specs: CheckSpec[], newest: HealthRow[]): CheckBoardEntry[] {
  const rows = newest.slice(0, CHECK_HISTORY_LENGTH);
  return specs.map((spec) => {
    const last = rows[0] ? resultIn(rows[0], spec.id) : null;
    const history = rows.map((r) => resultIn(r, spec.id)).filter((r): r is CheckResult => r !== null);
    return { check: toServerCheck(spec, last), last, history };
  });
}

/** GET /api/servers/{id}/checks. */
export async function listChecks(db: Db, server: Server): Promise<ServerCheck[]> {
  return (await checkBoard(db, server, 1)).map((e) => e.check);
}

/** A save waits this long for its names to resolve; a name still unresolved is treated as not found yet. */
const SAVE_LOOKUP_MS = 3000;
const LOOKUP_TIMED_OUT = { ok: false, reason: 'host name lookup failed' } as const;

/** Lookup failures are not refusals: a name may not resolve yet (or a dns check watches for it); the check says so. */
const LOOKUP_FAILURE = /^host name (not found|lookup failed)$/;

/**
 * 400 naming the first check whose target the policy refuses (a denied address is never saved, never connected to).
 * dns checks only ask the resolver, so the policy is not theirs (connectsToTarget).
 */
async function refuseDeniedTargets(checks: CheckInput[], policy: TargetPolicy): Promise<void> {
  const vet = (c: CheckInput) =>
    withDeadline(SAVE_LOOKUP_MS, () => resolveTarget(c.target, policy)).catch(() => LOOKUP_TIMED_OUT);
  const answers = await Promise.all(checks.map((c) => (connectsToTarget(c.kind) ? vet(c) : null)));
  answers.forEach((answer, i) => {
    if (!answer || answer.ok || LOOKUP_FAILURE.test(answer.reason)) return;
    const reason = answer.reason.replace(/^Refused:\s*/, '');
    throw badRequest(`Check ${i + 1}: target ${checks[i].target} is refused: ${reason}.`);
  });
}

/** A check's identity: an unchanged check keeps its id (and so its history) when the list is saved again. */
const keyOf = (c: Omit<CheckSpec, 'id'>) =>
  JSON.stringify([c.kind, c.target, c.port, c.path, c.expectStatus, c.expectText, c.warnDays, c.expectAddress]);

/**
 * PUT /api/servers/{id}/checks: replaces the list in one transaction (order kept, unchanged checks keep their ids),
 * with a `server.checks` audit event; an empty list returns the server to its implicit check.
 */
export async function replaceChecks(
  db: Db,
  serverId: string,
  checks: CheckInput[],
  policy: TargetPolicy,
  actorId: string | null,
): Promise<ServerCheck[]> {
  await requireServer(db, serverId); // 404 before any lookup
  await refuseDeniedTargets(checks, policy);
  const server = await db.transaction(async (tx) => {
    const locked = await lockServer(tx, serverId);
    const existing = await tx.select().from(serverChecks).where(eq(serverChecks.serverId, serverId));
    const free = new Map<string, string[]>();
    for (const row of existing) free.set(keyOf(row), [...(free.get(keyOf(row)) ?? []), row.id]);
    const kept = new Set<string>();
    for (const [position, check] of checks.entries()) {
      const id = free.get(keyOf(check))?.shift();
      if (id) {
        kept.add(id);
        await tx.update(serverChecks).set({ position }).where(eq(serverChecks.id, id));
      } else await tx.insert(serverChecks).values({ ...check, serverId, position });
    }
    const gone = existing.filter((r) => !kept.has(r.id)).map((r) => r.id);
    if (gone.length) await tx.delete(serverChecks).where(inArray(serverChecks.id, gone));
    await recordAudit(tx, {
      actorId,
      action: 'server.checks',
      entityType: 'server',
      entityId: serverId,
      details: { checks: checks.map(checkLabel) },
    });
    return locked;
  });
  return listChecks(db, server);
}
