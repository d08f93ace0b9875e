import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { allow, requirePageUser } from '../auth/policy';
import { forbidden } from '../http/errors';
import { readForm } from '../http/form';
import { fragment, isHtmx } from '../http/htmx';
import { requiredText } from '../http/text-fields';
import { triggerToast } from '../http/toast';
import { validate } from '../http/validate';
import {
  createPersonalToken,
  listPersonalTokens,
  revokePersonalToken,
  TOKEN_EXPIRY_DAYS,
  TOKEN_SCOPES,
} from './api-tokens';
import { ApiTokenPage, type ApiTokenPageProps } from './views/ApiTokenPage';
import { ApiTokensSection } from './views/ApiTokensSection';

type C = Context<AppEnv>;

export const TOKENS_NEED_SESSION = 'API tokens are managed from a signed-in session, not with a token.';

/** POST /api/me/tokens and the Settings form: expiresInDays absent, null or "" (the form's Never) is no expiry. */
export const personalTokenInput = z.object({
  name: requiredText('Token name', 100),
  scope: z.enum(TOKEN_SCOPES, { error: 'scope must be "read" or "read-write".' }),
  expiresInDays: z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' ? Number(v) : v),
    z.literal(TOKEN_EXPIRY_DAYS, { error: 'expiresInDays must be 30, 90 or 365 (or none).' }).nullish(),
  ),
});

const userId = (c: C) => c.var.user!.id;

function renderTokenPage(c: C, props: Omit<ApiTokenPageProps, 'timeZone' | 'script'>, status: 200 | 422) {
  c.status(status);
  // The new token is in this page: no cache may keep it.
  c.header('Cache-Control', 'no-store');
  const page = { ...props, timeZone: c.var.user!.timezone, script: c.var.deps.assets.scripts?.reading };
  return c.render(<ApiTokenPage {...page} />, { title: 'API Tokens', subtitle: 'Personal API tokens' });
}

/** /api/me/tokens: a user's own personal tokens (every role; a token never has more than its owner). */
function meTokensApi() {
  const app = new Hono<AppEnv>();
  app.use('*', allow('app.use'));
  // A leaked token must not mint itself successors: tokens are managed from a signed-in session only.
  app.use('*', async (c, next) => {
    if (c.var.tokenScope) throw forbidden(TOKENS_NEED_SESSION, 'token_management');
    await next();
  });
  app.get('/', async (c) => c.json(await listPersonalTokens(c.var.deps.db, userId(c))));
  app.post('/', validate('json', personalTokenInput), async (c) =>
    c.json(await createPersonalToken(c.var.deps.db, userId(c), c.req.valid('json')), 201),
  );
  app.delete('/:id', async (c) => {
    await revokePersonalToken(c.var.deps.db, userId(c), c.req.param('id'));
    return c.json({ message: 'Token revoked.' });
  });
  return app;
}

/** Settings › API tokens: create (the answer shows the token once), revoke (htmx swaps the section, else 303). */
function tokenPages() {
  const app = new Hono<AppEnv>();
  app.use('*', requirePageUser());
  app.post('/', async (c) => {
    const form = await readForm(c, personalTokenInput);
    if (!form.ok) return renderTokenPage(c, { form: { values: form.values, errors: form.errors } }, 422);
    return renderTokenPage(c, { created: await createPersonalToken(c.var.deps.db, userId(c), form.data) }, 200);
  });
  app.post('/:id/revoke', async (c) => {
    const { db } = c.var.deps;
    await revokePersonalToken(db, userId(c), c.req.param('id'));
    if (!isHtmx(c)) return c.redirect('/settings#api-tokens', 303);
    triggerToast(c, 'API Token Revoked');
    const tokens = await listPersonalTokens(db, userId(c));
    return fragment(c, <ApiTokensSection tokens={tokens} timeZone={c.var.user!.timezone} now={new Date()} />);
  });
  return app;
}

/** Personal API tokens: the JSON API and the Settings forms. */
export function apiTokenRoutes() {
  const app = new Hono<AppEnv>();
  app.route('/api/me/tokens', meTokensApi());
  app.route('/settings/tokens', tokenPages());
  return app;
}
