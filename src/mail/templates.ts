/** E-mail bodies: each message has a plain-text and an HTML part, the product name and the link in both. */

export const PRODUCT_NAME = 'Ops Hub';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** Text made safe to put into a message's HTML part. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A line of a list in a message, with its own link. */
export interface MailItem {
  text: string;
  url: string;
}

const itemsText = (items: MailItem[]) =>
  items.length ? [...items.flatMap((i) => [`- ${i.text}`, `  ${i.url}`]), ''] : [];
const itemsHtml = (items: MailItem[]) =>
  items.length
    ? `<ul>\n${items.map((i) => `<li>${escapeHtml(i.text)}: <a href="${escapeHtml(i.url)}">${escapeHtml(i.url)}</a></li>`).join('\n')}\n</ul>`
    : '';

/** One message: greeting, paragraphs, a linked list, a call-to-action link, a closing note. */
function compose(opts: {
  subject: string;
  greeting: string;
  paragraphs: string[];
  items?: MailItem[];
  action?: { label: string; url: string };
  note?: string;
}): MailContent {
  const { subject, greeting, paragraphs, items = [], action, note } = opts;
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...itemsText(items),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...(note ? [note, ''] : []),
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;line-height:1.5">
<h1 style="font-size:18px">${PRODUCT_NAME}</h1>
<p>${escapeHtml(greeting)}</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${itemsHtml(items)}
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
    paragraphs: [
      `${p.name} (${p.email}) has verified their email address and is waiting for an admin to approve the account.`,
    ],
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
    paragraphs: [
      `An admin has reviewed your ${PRODUCT_NAME} account request and did not approve it. Please contact support if you think this is a mistake.`,
    ],
    action: { label: `Open ${PRODUCT_NAME}`, url: p.url },
  });
}

/** "Reset your password": link to /reset-password?token=…, valid 1 hour. */
export function passwordResetMail(p: { firstName?: string | null; url: string }): MailContent {
  return compose({
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: hello(p.firstName),
    paragraphs: [
      `Someone asked to reset the password of your ${PRODUCT_NAME} account. Choose a new password with the link below.`,
    ],
    action: { label: 'Reset password', url: p.url },
    note: "This link expires in 1 hour and works once. If you didn't ask for it, you can ignore this email.",
  });
}

/** To the owner of an address someone tried to register again: sign in, or reset the password. */
export function registrationAttemptMail(p: {
  firstName?: string | null;
  loginUrl: string;
  resetUrl: string;
}): MailContent {
  return compose({
    subject: `Someone tried to register with your email address on ${PRODUCT_NAME}`,
    greeting: hello(p.firstName),
    paragraphs: [
      `Someone tried to create a new ${PRODUCT_NAME} account with this email address, which already has an account. No new account was created.`,
      'If it was you, sign in with your existing account, or reset your password if you have forgotten it.',
    ],
    items: [{ text: 'Forgot your password? Reset it', url: p.resetUrl }],
    action: { label: 'Sign in', url: p.loginUrl },
    note: "If it wasn't you, you can ignore this email; your account is unchanged.",
  });
}

/** A server in a status-change message: what it is and what happened to it, with its in-app link. */
export interface ServerChangeLine {
  name: string;
  address: string | null;
  environment: string;
  to: string;
  /** When the check saw it, already written in the reader's timezone. */
  when: string;
  url: string;
  /** Flapping: announced once when it starts, and once with the status it settled on. */
  flapping?: 'started' | 'settled';
}

function changeText(c: ServerChangeLine): string {
  const changed = c.to === 'offline' ? 'went offline' : 'is back online';
  const what =
    c.flapping === 'started'
      ? `is flapping (now ${c.to}; further changes this hour are not announced)`
      : c.flapping === 'settled'
        ? `stopped flapping and is ${c.to}`
        : changed;
  const warning = c.to === 'warning' ? ' (warning: cpu, memory or disk at 90% or more)' : '';
  return `${c.name} (${c.address ?? 'no address'}, ${c.environment}) ${what} at ${c.when}${warning}`;
}

/** "web-1 is offline", "2 servers offline, 1 back online": the subject line of a round's changes. */
export function statusHeadline(changes: Pick<ServerChangeLine, 'name' | 'to'>[]): string {
  const down = changes.filter((c) => c.to === 'offline').length;
  const up = changes.length - down;
  if (changes.length === 1) return `${changes[0].name} ${down ? 'is offline' : 'is back online'}`;
  return [down && `${down} server${down === 1 ? '' : 's'} offline`, up && `${up} back online`]
    .filter(Boolean)
    .join(', ');
}

/** "Server status changes": the servers of one health-check round that went offline or came back, one link each. */
export function serverStatusMail(p: {
  firstName?: string | null;
  changes: ServerChangeLine[];
  timeZone: string;
  settingsUrl: string;
}): MailContent {
  return compose({
    subject: `${PRODUCT_NAME}: ${statusHeadline(p.changes)}`,
    greeting: hello(p.firstName),
    paragraphs: [
      `The latest health checks found ${p.changes.length === 1 ? 'this change' : 'these changes'} (times in ${p.timeZone}):`,
    ],
    items: p.changes.map((c) => ({ text: changeText(c), url: c.url })),
    note: `You receive this because Email notifications are on in your settings: ${p.settingsUrl}`,
  });
}

/** The batched e-mail of a user's in-app notifications (issue 22): one line each, with its link. */
export function notificationsMail(p: {
  firstName?: string | null;
  items: MailItem[];
  notificationsUrl: string;
  settingsUrl: string;
}): MailContent {
  const one = p.items.length === 1;
  return compose({
    subject: one
      ? `${PRODUCT_NAME}: ${p.items[0].text.replace(/\s+/g, ' ').slice(0, 150)}`
      : `${PRODUCT_NAME}: ${p.items.length} new notifications`,
    greeting: hello(p.firstName),
    paragraphs: [one ? 'You have a new notification:' : `You have ${p.items.length} new notifications:`],
    items: p.items,
    action: { label: 'Open your notifications', url: p.notificationsUrl },
    note: `You receive this because Email notifications are on in your settings: ${p.settingsUrl}`,
  });
}

export type SecurityEvent =
  | 'password_changed'
  | 'password_reset'
  | 'sessions_revoked'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'recovery_code_used';

const securityWhat: Record<SecurityEvent, { subject: string; what: string }> = {
  password_changed: {
    subject: `Your ${PRODUCT_NAME} password was changed`,
    what: 'The password of your account was changed in Settings; your other sessions were signed out.',
  },
  password_reset: {
    subject: `Your ${PRODUCT_NAME} password was reset`,
    what: 'The password of your account was reset with an e-mailed reset link; every session was signed out.',
  },
  sessions_revoked: {
    subject: `Your other ${PRODUCT_NAME} sessions were signed out`,
    what: 'All sessions of your account except the one that asked were signed out.',
  },
  two_factor_enabled: {
    subject: `Two-factor sign-in was turned on for your ${PRODUCT_NAME} account`,
    what: 'Two-factor sign-in was turned on in Settings: signing in now also asks for a code from an authenticator app.',
  },
  two_factor_disabled: {
    subject: `Two-factor sign-in was turned off for your ${PRODUCT_NAME} account`,
    what: 'Two-factor sign-in was turned off in Settings: signing in no longer asks for a code.',
  },
  recovery_code_used: {
    subject: `A recovery code was used for your ${PRODUCT_NAME} account`,
    what: 'One of your two-factor recovery codes was used instead of a code from your authenticator app.',
  },
};

/** A security alert: what happened, when (reader's timezone), from where if known, and what to do if it was not them. */
export function securityAlertMail(p: {
  firstName?: string | null;
  email: string;
  event: SecurityEvent;
  when: string;
  timeZone: string;
  ip?: string | null;
  userAgent?: string | null;
  resetUrl: string;
  settingsUrl: string;
}): MailContent {
  const { subject, what } = securityWhat[p.event];
  const from = [p.ip && `IP address ${p.ip}`, p.userAgent && `browser "${p.userAgent.slice(0, 200)}"`]
    .filter(Boolean)
    .join(', ');
  return compose({
    subject,
    greeting: hello(p.firstName),
    paragraphs: [
      `${what} Account: ${p.email}.`,
      `When: ${p.when} (${p.timeZone}).${from ? ` From: ${from}.` : ''}`,
      'If this was you, there is nothing to do. If it was not you, reset your password now with the link below and tell an administrator.',
    ],
    action: { label: 'Reset your password', url: p.resetUrl },
    note: `You receive this because Security alerts are on in your settings: ${p.settingsUrl}`,
  });
}

/** A line of the weekly review digest: an item whose review date has passed, with its own link. */
export interface ReviewDueLine {
  title: string;
  /** When it was due, already written in the reader's timezone. */
  due: string;
  url: string;
}

/** The weekly review digest (issue 22): the owner's items whose review date has passed, one link each. */
export function reviewDigestMail(p: {
  firstName?: string | null;
  items: ReviewDueLine[];
  listUrl: string;
  settingsUrl: string;
}): MailContent {
  const n = p.items.length;
  return compose({
    subject: `${PRODUCT_NAME}: ${n} item${n === 1 ? '' : 's'} due for review`,
    greeting: hello(p.firstName),
    paragraphs: [
      `${n === 1 ? 'This item you own is' : `These ${n} items you own are`} past ${n === 1 ? 'its' : 'their'} review date. Open each, check it is still right, and choose "Mark as reviewed".`,
    ],
    items: p.items.map((i) => ({ text: `${i.title} (due ${i.due})`, url: i.url })),
    action: { label: 'See every overdue item', url: p.listUrl },
    note: `You receive this weekly because Email notifications are on in your settings: ${p.settingsUrl}`,
  });
}
