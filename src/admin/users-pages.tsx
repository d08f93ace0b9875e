import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allowPage } from '../auth/policy';
import { AppError } from '../http/errors';
import { formValues } from '../http/form';
import type { Toast } from '../http/flash';
import { changeAccount, listAccounts, resendVerification, resetTwoFactor } from './accounts';
import { accessDenied } from './denied';
import { accountChangeInput, userIdParam } from './schemas';
import { getSecuritySettings, setSecuritySettings } from './security-settings';
import { UsersPage } from './views/UsersPage';

type C = Context<AppEnv>;
const PAGE = { title: 'Users', subtitle: 'Roles, account status and sign-in security' };

/** What a redirect after a change says (only a key travels in the URL, never text from the request). */
const DONE: Record<string, Toast> = {
  role: { title: 'Role changed', variant: 'success' },
  deactivated: { title: 'Account deactivated', text: 'Their sessions have ended.', variant: 'success' },
  active: { title: 'Account reactivated', variant: 'success' },
  'reset-2fa': { title: 'Two-factor sign-in reset', variant: 'success' },
  verification: { title: 'Verification email sent', variant: 'success' },
  settings: { title: 'Settings saved', variant: 'success' },
};

async function render(c: C, banner?: { variant: 'error'; text: string }, toast?: Toast) {
  const { db } = c.var.deps;
  const [accounts, settings] = await Promise.all([listAccounts(db), getSecuritySettings(db)]);
  return c.render(
    <>
      {toast && <span hidden data-replace-url="/admin/users" />}
      <UsersPage
        accounts={accounts}
        settings={settings}
        selfId={c.var.user!.id}
        timeZone={c.var.user!.timezone}
        banner={banner}
      />
    </>,
    { ...PAGE, toast },
  );
}

/**
 * Runs one change from a form; `change` answers the toast key. A redirect back with the key, or the page again with
 * the refusal (4xx) in a banner.
 */
async function act(c: C, change: (id: string, values: Record<string, string>) => Promise<string>) {
  try {
    const id = c.req.param('id');
    if (id !== undefined && !userIdParam.safeParse({ id }).success) throw new AppError(404, 'User not found.');
    const done = await change(id ?? '', await formValues(c));
    return c.redirect(`/admin/users?done=${done}`, 303);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    c.status(err.status);
    return render(c, { variant: 'error', text: err.message });
  }
}

/** The account change a form asks for, checked like the API's body (400 with its first problem). */
function parseChange(values: { role?: string; status?: string }) {
  const parsed = accountChangeInput.safeParse(values);
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? 'Invalid input.', 'validation_error');
  return parsed.data;
}

/** /admin/users: the accounts and their plain-form actions (POST → 303 back with a toast), admins only. */
export function adminUsersPages() {
  const app = new Hono<AppEnv>();
  app.use('/admin/users', allowPage('users.manage', accessDenied(PAGE)));
  app.use('/admin/users/*', allowPage('users.manage', accessDenied(PAGE)));

  app.get('/admin/users', (c) => render(c, undefined, DONE[c.req.query('done') ?? '']));

  app.post('/admin/users/settings', (c) =>
    act(c, async (_id, v) => {
      const settings = {
        requireTwoFactor: v.requireTwoFactor === 'on',
        twoFactorForExternal: v.twoFactorForExternal === 'on',
      };
      await setSecuritySettings(c.var.deps.db, c.var.user!.id, settings);
      return 'settings';
    }),
  );
  app.post('/admin/users/:id/role', (c) =>
    act(c, async (id, v) => {
      await changeAccount(c.var.deps.db, c.var.user!, id, { role: parseChange({ role: v.role ?? '' }).role });
      return 'role';
    }),
  );
  app.post('/admin/users/:id/status', (c) =>
    act(c, async (id, v) => {
      const { status } = parseChange({ status: v.status ?? '' });
      await changeAccount(c.var.deps.db, c.var.user!, id, { status });
      return status ?? 'active';
    }),
  );
  app.post('/admin/users/:id/reset-2fa', (c) =>
    act(c, async (id) => {
      await resetTwoFactor(c.var.deps.db, c.var.user!, id);
      return 'reset-2fa';
    }),
  );
  app.post('/admin/users/:id/resend-verification', (c) =>
    act(c, async (id) => {
      await resendVerification(c.var.deps.db, c.var.deps.config.appUrl, c.var.user!, id);
      return 'verification';
    }),
  );
  return app;
}
