import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requirePageUser } from '../auth/policy';
import {
  disableTwoFactor,
  enableTwoFactor,
  startTwoFactorSetup,
  twoFactorCodeSchema,
  twoFactorState,
} from '../auth/service';
import { clientIp } from '../http/client-ip';
import { AppError } from '../http/errors';
import { submitForm } from '../http/form';
import { Banner } from '../ui/components';
import { TwoFactorSection, type TwoFactorSectionProps } from './views/TwoFactorSection';

type C = Context<AppEnv>;

/** The two-factor section's props for the signed-in user (Settings and the set-up page). */
export async function twoFactorView(c: C): Promise<TwoFactorSectionProps> {
  const user = c.var.user!;
  return { state: await twoFactorState(c.var.deps.db, user.id), timezone: user.timezone };
}

const requester = (c: C) => ({
  appUrl: c.var.deps.config.appUrl,
  client: { ip: clientIp(c), userAgent: c.req.header('user-agent')?.slice(0, 300) },
});

/** A refused code is the code field's error (a 5xx is not the user's to fix). */
const codeField = (err: AppError) => (err.status < 500 ? 'code' : undefined);

/** The set-up page: the section alone, so a user the workspace holds back until set-up can finish it here. */
async function render(
  c: C,
  extra: Partial<TwoFactorSectionProps> = {},
  status: 200 | 400 | 403 | 409 | 422 | 429 = 200,
) {
  const view = await twoFactorView(c);
  const held = c.var.user!.twoFactorSetupRequired;
  const turnedOff = c.req.query('updated') === 'off';
  c.status(status);
  return c.render(
    <div className="stack settings">
      {held && !extra.recoveryCodes && (
        <Banner variant="info">Two-factor sign-in is required in this workspace. Set it up to continue.</Banner>
      )}
      {turnedOff && <Banner variant="success">Two-factor sign-in is off.</Banner>}
      <TwoFactorSection {...view} doneUrl={held ? '/' : '/settings'} {...extra} />
    </div>,
    { title: 'Two-factor sign-in', subtitle: 'Settings › Security' },
  );
}

/** Settings › Security › Two-factor sign-in: plain forms (POST → 303, or the page with the outcome). */
export function twoFactorSettingsPages() {
  const app = new Hono<AppEnv>();
  app.get('/settings/two-factor', requirePageUser(), (c) => render(c));
  app.post('/settings/two-factor/setup', requirePageUser(), async (c) => {
    try {
      await startTwoFactorSetup(c.var.deps.db, c.var.user!.id);
    } catch (err) {
      // Already on (another tab): the page shows it as it is.
      if (!(err instanceof AppError) || err.status !== 409) throw err;
    }
    return c.redirect('/settings/two-factor', 303);
  });
  app.post('/settings/two-factor/enable', requirePageUser(), async (c) => {
    const form = await submitForm(
      c,
      twoFactorCodeSchema,
      (d) => enableTwoFactor(c.var.deps.db, c.var.user!.id, d.code, requester(c)),
      codeField,
    );
    if (!form.ok) return render(c, { error: form.errors.code ?? form.errors.form }, 422);
    return render(c, { recoveryCodes: form.result });
  });
  app.post('/settings/two-factor/disable', requirePageUser(), async (c) => {
    const form = await submitForm(
      c,
      twoFactorCodeSchema,
      (d) => disableTwoFactor(c.var.deps.db, c.var.user!.id, d.code, requester(c)),
      codeField,
    );
    if (!form.ok) return render(c, { error: form.errors.code ?? form.errors.form }, 422);
    return c.redirect('/settings/two-factor?updated=off', 303);
  });
  return app;
}
