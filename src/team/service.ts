import { and, asc, eq } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { teamMembers } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import type { MemberInput, TeamMember } from './schemas';

type Row = typeof teamMembers.$inferSelect;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DUPLICATE_EMAIL = 'A team member with this email already exists.';

const toMember = (r: Row): TeamMember => ({
  id: r.id,
  name: r.name,
  email: r.email,
  role: r.role,
  department: r.department,
  profileImageUrl: r.profileImageUrl,
  status: r.status,
  lastActive: r.lastActive ? r.lastActive.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Postgres unique violation (either driver; drizzle may wrap it). */
const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: unknown } | null;
  return !!e && (e.code === '23505' || isUniqueViolation(e.cause));
};

async function assertEmailFree(db: Db, email: string, exceptId?: string) {
  const [row] = await db.select({ id: teamMembers.id }).from(teamMembers).where(eq(teamMembers.email, email)).limit(1);
  if (row && row.id !== exceptId) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
}

/** Every member by name. */
export async function listMembers(db: Db): Promise<TeamMember[]> {
  return (await db.select().from(teamMembers).orderBy(asc(teamMembers.name))).map(toMember);
}

/** Spec search: name, e-mail, role or department contain the text, case-insensitive. */
export function filterMembers(members: TeamMember[], q: string): TeamMember[] {
  const needle = q.trim().toLowerCase();
  if (!needle) return members;
  return members.filter((m) =>
    [m.name, m.email, m.role, m.department ?? ''].some((v) => v.toLowerCase().includes(needle)),
  );
}

/** Adds a member (status active unless given); a taken e-mail → 409. */
export async function createMember(db: Db, input: MemberInput, actorId: string | null): Promise<TeamMember> {
  await assertEmailFree(db, input.email);
  try {
    const [row] = await db
      .insert(teamMembers)
      .values({ ...input, status: input.status ?? 'active' })
      .returning();
    await recordAudit(db, {
      actorId,
      action: 'team_member.create',
      entityType: 'team_member',
      entityId: row.id,
      details: { email: row.email },
    });
    return toMember(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
    throw err;
  }
}

/** Replaces a member's fields; unknown id → 404, taken e-mail → 409. */
export async function updateMember(
  db: Db,
  id: string,
  input: MemberInput,
  actorId: string | null,
): Promise<TeamMember> {
  if (!(await getMember(db, id))) throw notFound('Team member not found.');
  await assertEmailFree(db, input.email, id);
  try {
    const [row] = await db
      .update(teamMembers)
      .set({ ...input, status: input.status ?? 'active', updatedAt: new Date() })
      .where(eq(teamMembers.id, id))
      .returning();
    if (!row) throw notFound('Team member not found.');
    await recordAudit(db, {
      actorId,
      action: 'team_member.update',
      entityType: 'team_member',
      entityId: id,
      details: { email: row.email },
    });
    return toMember(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
    throw err;
  }
}

/** Removes a member; unknown id → 404. */
export async function deleteMember(db: Db, id: string, actorId: string | null): Promise<TeamMember> {
  if (!UUID.test(id)) throw notFound('Team member not found.');
  const [row] = await db.delete(teamMembers).where(eq(teamMembers.id, id)).returning();
  if (!row) throw notFound('Team member not found.');
  await recordAudit(db, {
    actorId,
    action: 'team_member.delete',
    entityType: 'team_member',
    entityId: id,
    details: { email: row.email, name: row.name },
  });
  return toMember(row);
}

/** One member by id, or null. */
export async function getMember(db: Db, id: string): Promise<TeamMember | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(teamMembers).where(eq(teamMembers.id, id)).limit(1);
  return row ? toMember(row) : null;
}

/** The invitee has registered with the invited address (and proved it): their directory entry becomes active. */
export async function activateInvitedMember(db: Db, email: string): Promise<void> {
  await db
    .update(teamMembers)
    .set({ status: 'active', updatedAt: new Date() })
    .where(and(eq(teamMembers.email, email.toLowerCase()), eq(teamMembers.status, 'invited')));
}

/** A successful sign-in with this address: the directory's "Last active" for its member. */
export async function recordMemberSignIn(db: Db, email: string, at = new Date()): Promise<void> {
  await db.update(teamMembers).set({ lastActive: at }).where(eq(teamMembers.email, email.toLowerCase()));
}
