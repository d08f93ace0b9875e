import { Hono, type Context } from 'hono';
import type { ZodType } from 'zod';
import type { AppEnv } from '../app-env';
import { AppError } from '../http/errors';
import { submitForm } from '../http/form';
import { clearSessionCookie } from '../http/session';
import { requirePageUser } from '../auth/policy';
import { clientIp } from '../http/client-ip';
import { pushScriptUrl } from '../notifications/service';
import { checkedReportTeam, reportTeams } from '../reports/service';
import { listPersonalTokens } from './api-tokens';
import { removeAvatar, setAvatar } from './avatar';
import { twoFactorSettingsPages, twoFactorView } from './two-factor-pages';
import { appearanceInput, deleteAccountInput, notificationsInput, passwordInput, profileInput } from './schemas';
import {
  changePassword,
  deleteAccount,
  getSettings,
  savePreferences,
  signOutOtherSessions,
  updateProfile,
  type Requester,
} from './service';
import { SettingsPage, type Section, type SettingsPageProps } from './views/SettingsPage';

type C = Context<AppEnv>;

/** Messages shown after a redirect (?updated=…). */
const flashes: Record<string, { title: string; text?: string }> = {
  profile: { title: 'Profile Updated', text: 'Your profile information has been saved.' },
  preferences: { title: 'Preferences Updated', text: 'Your preferences have been saved.' },
  password: { title: 'Password Updated', text: 'Your password has been changed. Other sessions were signed out.' },
  sessions: { title: 'Sessions Signed Out', text: 'All your other sessions have been signed out.' },
  avatar: { title: 'Profile Updated', text: 'Your avatar has been changed.' },
};

/** Who is asking (for security alerts): the app URL for links, this session, the client's address and browser. */
const requester = (c: C): Requester => ({
  appUrl: c.var.deps.config.appUrl,
  keepSid: c.var.sessionId,
  client: { ip: clientIp(c), userAgent: c.req.header('user-agent') },
});

/** Web Push for the page: the VAPID public key and the settings-only script, or null when the server has no keys. */
function pushProps(c: C): SettingsPageProps['push'] {
  const { push } = c.var.deps.config;
  const script = pushScriptUrl(c.var.deps.assets);
  return push && script ? { publicKey: push.publicKey, script } : null;
}

async function render(c: C, extra: Partial<SettingsPageProps> = {}, status: 200 | 400 | 409 | 422 = 200) {
  const s = await getSettings(c.var.deps.db, c.var.user!.id, c.var.sessionId);
  c.status(status);
  const apiTokens = await listPersonalTokens(c.var.deps.db, c.var.user!.id);
  return c.render(
    <SettingsPage
      s={s}
      now={new Date()}
      push={pushProps(c)}
      apiTokens={apiTokens}
      reportTeams={await reportTeams(c.var.deps.db)}
      twoFactor={await twoFactorView(c)}
      {...extra}
    />,
    {
      title: 'Settings',
      subtitle: 'Manage your account settings and preferences',
    },
  );
}

/** The field of a section that a refusal (4xx) belongs to. */
function refusedField(section: Section, err: AppError): string | undefined {
  if (err.status >= 500) return undefined;
  if (section === 'delete') return 'confirmEmail';
  if (section === 'password') return err.code === 'current_password' ? 'currentPassword' : 'newPassword';
  if (err.code === 'report_team') return 'reportTeam';
  return 'form';
}

/** Validates and saves a section's form; on failure re-renders the page with its errors (422). */
async function withForm<T>(c: C, section: Section, schema: ZodType<T>, save: (data: T) => Promise<string | Response>) {
  const form = await submitForm(c, schema, save, (err) => refusedField(section, err));
  if (!form.ok) return render(c, { form: { section, values: form.values, errors: form.errors } }, 422);
  return typeof form.result === 'string' ? c.redirect(`/settings?updated=${form.result}`, 303) : form.result;
}

/** /settings and its section forms. */
export function settingsPages() {
  const app = new Hono<AppEnv>();
  app.use('/settings', requirePageUser());
  app.use('/settings/*', requirePageUser());
  app.route('/', twoFactorSettingsPages());
  app.get('/settings', (c) => render(c, { flash: flashes[c.req.query('updated') ?? ''] }));
  app.post('/settings/profile', (c) =>
    withForm(c, 'profile', profileInput, async (d) => {
      await updateProfile(c.var.deps.db, c.var.user!.id, d);
      return 'profile';
    }),
  );
  app.post('/settings/avatar', async (c) => {
    const file = (await c.req.parseBody()).avatar;
    const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
    try {
      await setAvatar(c.var.deps.db, c.var.user!.id, bytes);
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      return render(c, { form: { section: 'avatar', values: {}, errors: { avatar: err.message } } }, 422);
    }
    return c.redirect('/settings?updated=avatar', 303);
  });
  app.post('/settings/avatar/remove', async (c) => {
    await removeAvatar(c.var.deps.db, c.var.user!.id);
    return c.redirect('/settings?updated=avatar', 303);
  });
  app.post('/settings/notifications', (c) =>
    withForm(c, 'notifications', notificationsInput, async (d) => {
      const reportTeam = d.reportTeam ? await checkedReportTeam(c.var.deps.db, d.reportTeam) : d.reportTeam;
      await savePreferences(c.var.deps.db, c.var.user!.id, { ...d, reportTeam });
      return 'preferences';
    }),
  );
  app.post('/settings/appearance', (c) =>
    withForm(c, 'appearance', appearanceInput, async (d) => {
      await savePreferences(c.var.deps.db, c.var.user!.id, d);
      return 'preferences';
    }),
  );
  app.post('/settings/password', (c) =>
    withForm(c, 'password', passwordInput, async (d) => {
      await changePassword(c.var.deps.db, c.var.user!.id, d, requester(c));
      return 'password';
    }),
  );
  app.post('/settings/sessions', async (c) => {
    await signOutOtherSessions(c.var.deps.db, c.var.user!.id, requester(c));
    return c.redirect('/settings?updated=sessions', 303);
  });
  app.post('/settings/delete-account', (c) =>
    withForm(c, 'delete', deleteAccountInput, async (d) => {
      await deleteAccount(c.var.deps.db, c.var.user!.id, d.confirmEmail);
      clearSessionCookie(c);
      return c.redirect('/', 303);
    }),
  );
  return app;
}
