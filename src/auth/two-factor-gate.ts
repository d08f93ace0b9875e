import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { forbidden, isApiPath } from '../http/errors';
import { TWO_FACTOR_SETUP_PATH } from './next';

export const SETUP_REQUIRED_MESSAGE =
  'Two-factor sign-in is required in this workspace. Set it up in Settings › Security to continue.';

/** What a user who owes the two-factor set-up may still do: set it up, see who they are, sign out. */
const OPEN_DURING_SETUP = new Set([
  'GET /api/auth/user',
  'POST /api/auth/logout',
  'GET /api/logout',
  'POST /api/me/two-factor/setup',
  'POST /api/me/two-factor/enable',
  `GET ${TWO_FACTOR_SETUP_PATH}`,
  `POST ${TWO_FACTOR_SETUP_PATH}/setup`,
  `POST ${TWO_FACTOR_SETUP_PATH}/enable`,
]);

/**
 * Holds back a signed-in user (by session or Bearer token; both loaders read the flag) who owes the two-factor set-up the workspace requires:
 * API calls answer 403 `two_factor_setup_required`, page visits go to the set-up, form posts are refused. Runs after
 * the session and token loaders, so it judges c.var.user whoever loaded it.
 */
export const twoFactorGate = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const user = c.var.user;
  if (!user || OPEN_DURING_SETUP.has(`${c.req.method} ${c.req.path}`)) return next();
  if (!user.twoFactorSetupRequired) return next();
  if (!isApiPath(c) && (c.req.method === 'GET' || c.req.method === 'HEAD')) return c.redirect(TWO_FACTOR_SETUP_PATH);
  throw forbidden(SETUP_REQUIRED_MESSAGE, 'two_factor_setup_required');
};
