import { randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/client';
import { enqueueMail } from '../mail/outbox';
import type { InviteInput } from './schemas';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The link a person is invited with: the register page with their e-mail filled in. */
export const invitationUrl = (appUrl: string, email: string) => `${appUrl.replace(/\/$/, '')}/register?email=${encodeURIComponent(email)}`;

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

/** Queues the invitation e-mail (outbox, so nothing is lost while SMTP is down) and audits it. */
export async function inviteMember(db: Db, appUrl: string, input: InviteInput, inviter: { id: string; name: string }): Promise<{ invitedEmail: string }> {
  const url = invitationUrl(appUrl, input.email);
  await db.transaction(async (tx) => {
    await enqueueMail(tx as unknown as Db, { dedupeKey: `team-invite:${randomUUID()}`, to: input.email, ...invitationMail({ ...input, url, inviterName: inviter.name }) });
    await recordAudit(tx as unknown as Db, { actorId: inviter.id, action: 'team.invite', entityType: 'team_member', details: { email: input.email, role: input.role } });
  });
  return { invitedEmail: input.email };
}
