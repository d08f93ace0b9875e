import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { teamMembers, users } from '../db/schema';
import { enforce, type Rule } from '../http/rate-limit';
import { enqueueMail } from '../mail/service';
import type { InviteInput } from './schemas';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The link a person is invited with: the register page with their e-mail filled in. */
export const invitationUrl = (appUrl: string, email: string) =>
  `${appUrl.replace(/\/$/, '')}/register?email=${encodeURIComponent(email)}`;

/** Subject, text and HTML of an invitation. */
export function invitationMail(p: InviteInput & { url: string; inviterName: string }) {
  const subject = `You're invited to join Ops Hub`;
  const role = p.department ? `${p.role}, ${p.department}` : p.role;
  const text = [
    `Hello ${p.firstName},`,
    '',
    `${p.inviterName} has invited you to join the team on Ops Hub as ${role}.`,
    '',
    `Create your account: ${p.url}`,
    '',
    'If you were not expecting this invitation, you can ignore this email.',
    '',
    '— Ops Hub',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<h1 style="font-size:18px">Ops Hub</h1>
<p>Hello ${escapeHtml(p.firstName)},</p>
<p>${escapeHtml(p.inviterName)} has invited you to join the team on Ops Hub as ${escapeHtml(role)}.</p>
<p><a href="${escapeHtml(p.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">Create your account</a></p>
<p style="font-size:12px;color:#6b7280">Or open this link: ${escapeHtml(p.url)}</p>
<p style="font-size:12px;color:#6b7280">If you were not expecting this invitation, you can ignore this email.</p>
</body></html>`;
  return { subject, text, html };
}

/** Invitations: 20 per inviter an hour, 3 per invited address a day (an outside address cannot be flooded). */
const inviteRules = (inviterId: string, email: string): Rule[] => [
  { key: `invite:inviter:${inviterId}`, limit: 20, windowSeconds: 60 * 60 },
  { key: `invite:address:${email.toLowerCase()}`, limit: 3, windowSeconds: 24 * 60 * 60 },
];

export const THROTTLED_INVITES = 'Too many invitations. Please try again later.';

/** Whether someone already holds a verified account with this address (they have nothing left to register). */
async function hasVerifiedAccount(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), eq(users.isEmailVerified, true)))
    .limit(1);
  return !!row;
}

/**
 * The invitee's directory entry: status invited until they register with the address (active at once if they
 * already have). An existing member keeps their entry; an earlier invitation's entry takes the new details.
 */
async function addInvitedMember(tx: Db, input: InviteInput) {
  const details = {
    name: `${input.firstName} ${input.lastName}`,
    role: input.role,
    department: input.department ?? null,
  };
  const status = (await hasVerifiedAccount(tx, input.email)) ? ('active' as const) : ('invited' as const);
  await tx
    .insert(teamMembers)
    .values({ ...details, email: input.email, status })
    .onConflictDoUpdate({
      target: teamMembers.email,
      set: { ...details, updatedAt: sql`now()` },
      setWhere: eq(teamMembers.status, 'invited'),
    });
}

/**
 * Queues the invitation e-mail (outbox, so nothing is lost while SMTP is down), adds the invitee to the directory
 * and audits it; 429 beyond the limits.
 */
export async function inviteMember(
  db: Db,
  appUrl: string,
  input: InviteInput,
  inviter: { id: string; name: string },
): Promise<{ invitedEmail: string }> {
  await enforce(db, inviteRules(inviter.id, input.email), THROTTLED_INVITES);
  const url = invitationUrl(appUrl, input.email);
  await db.transaction(async (tx) => {
    await addInvitedMember(tx, input);
    await enqueueMail(tx, {
      dedupeKey: `team-invite:${randomUUID()}`,
      to: input.email,
      ...invitationMail({ ...input, url, inviterName: inviter.name }),
    });
    await recordAudit(tx, {
      actorId: inviter.id,
      action: 'team.invite',
      entityType: 'team_member',
      details: { email: input.email, role: input.role },
    });
  });
  return { invitedEmail: input.email };
}
