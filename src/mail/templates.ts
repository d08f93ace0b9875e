/** E-mail bodies: each message has a plain-text and an HTML part, the product name and the link in both. */

export const PRODUCT_NAME = 'Ops Hub';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** One message: greeting, paragraphs, a call-to-action link, a closing note. */
function compose(opts: { subject: string; greeting: string; paragraphs: string[]; action?: { label: string; url: string }; note?: string }): MailContent {
  const { subject, greeting, paragraphs, action, note } = opts;
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(note ? [note, ''] : []),
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<h1 style="font-size:18px">${PRODUCT_NAME}</h1>
<p>${escapeHtml(greeting)}</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${action ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>\n<p style="font-size:12px;color:#6b7280">Or open this link: ${escapeHtml(action.url)}</p>` : ''}
${note ? `<p style="font-size:12px;color:#6b7280">${escapeHtml(note)}</p>` : ''}
<p style="font-size:12px;color:#6b7280">— ${PRODUCT_NAME}</p>
</body></html>`;
  return { subject, text, html };
}

const hello = (name?: string | null) => (name ? `Hello ${name},` : 'Hello,');

/** "Verify your e-mail address": link to /verify-email?token=…, valid 24 hours. */
export function verificationMail(p: { firstName?: string | null; url: string }): MailContent {
  return compose({
    subject: `Verify your email address for ${PRODUCT_NAME}`,
    greeting: hello(p.firstName),
    paragraphs: [`Thanks for registering with ${PRODUCT_NAME}. Please confirm your email address to continue.`],
    action: { label: 'Verify email address', url: p.url },
    note: "This link expires in 24 hours. If you didn't create an account, you can ignore this email.",
  });
}

/** To every admin: a new account awaits approval, with a link to /admin/approval. */
export function approvalRequestMail(p: { name: string; email: string; url: string }): MailContent {
  return compose({
    subject: `${PRODUCT_NAME}: new account awaiting approval (${p.email})`,
    greeting: 'Hello,',
    paragraphs: [`${p.name} (${p.email}) has verified their email address and is waiting for an admin to approve the account.`],
    action: { label: 'Review pending accounts', url: p.url },
  });
}

/** To the user: the account was approved. */
export function approvedMail(p: { firstName?: string | null; url: string }): MailContent {
  return compose({
    subject: `Your ${PRODUCT_NAME} account has been approved`,
    greeting: hello(p.firstName),
    paragraphs: [`Good news: an admin has approved your ${PRODUCT_NAME} account. You can sign in now.`],
    action: { label: 'Sign in', url: p.url },
  });
}

/** To the user: the account was rejected. */
export function rejectedMail(p: { firstName?: string | null; url: string }): MailContent {
  return compose({
    subject: `Your ${PRODUCT_NAME} account request`,
    greeting: hello(p.firstName),
    paragraphs: [`An admin has reviewed your ${PRODUCT_NAME} account request and did not approve it. Please contact support if you think this is a mistake.`],
    action: { label: `Open ${PRODUCT_NAME}`, url: p.url },
  });
}

/** "Reset your password": link to /reset-password?token=…, valid 1 hour. */
export function passwordResetMail(p: { firstName?: string | null; url: string }): MailContent {
  return compose({
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: hello(p.firstName),
    paragraphs: [`Someone asked to reset the password of your ${PRODUCT_NAME} account. Choose a new password with the link below.`],
    action: { label: 'Reset password', url: p.url },
    note: "This link expires in 1 hour and works once. If you didn't ask for it, you can ignore this email.",
  });
}
