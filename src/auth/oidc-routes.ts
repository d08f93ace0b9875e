import { Hono, type Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { publicRoute } from './policy';
import { setFlash } from '../http/flash';
import { setSessionCookie } from '../http/session';
import { clientIp } from '../http/client-ip';
import { completeExternalSignIn } from './commands';
import { codeStepUrl, safeNext, TWO_FACTOR_SETUP_PATH } from './next';
import { providerSettings, startAuthorization, type ProviderName } from './oidc';

const STATE_COOKIE = 'ops_oidc';
const STATE_MAX_AGE = 10 * 60;

interface PendingAuth {
  provider: ProviderName;
  verifier: string;
  state: string;
  nonce: string;
  next: string;
}

const cookieOptions = (c: Context<AppEnv>) => ({
  path: '/auth',
  httpOnly: true,
  sameSite: 'Lax' as const,
  secure: c.var.deps.config.secureCookies,
});

const redirectUri = (c: Context<AppEnv>, provider: ProviderName) =>
  `${c.var.deps.config.appUrl}/auth/${provider}/callback`;

/** GET /auth/{provider}: remembers PKCE verifier, state, nonce and the return path in a signed cookie, then goes to the provider. */
async function start(c: Context<AppEnv>, provider: ProviderName) {
  const settings = providerSettings(c.var.deps.config, provider);
  if (!settings) return c.redirect('/login?error=google_not_configured');
  try {
    const req = await startAuthorization(settings, redirectUri(c, provider));
    const pending: PendingAuth = {
      provider,
      verifier: req.verifier,
      state: req.state,
      nonce: req.nonce,
      next: safeNext(c.req.query('next')),
    };
    await setSignedCookie(
      c,
      STATE_COOKIE,
      Buffer.from(JSON.stringify(pending)).toString('base64url'),
      c.var.deps.secret,
      {
        ...cookieOptions(c),
        maxAge: STATE_MAX_AGE,
      },
    );
    return c.redirect(req.url);
  } catch (err) {
    c.var.logger.warn({ err, provider }, 'sign-in provider unavailable');
    return c.redirect('/login?error=google_auth_failed');
  }
}

async function readPending(c: Context<AppEnv>, provider: ProviderName): Promise<PendingAuth | null> {
  const raw = await getSignedCookie(c, c.var.deps.secret, STATE_COOKIE);
  deleteCookie(c, STATE_COOKIE, cookieOptions(c));
  if (!raw) return null;
  try {
    const pending = JSON.parse(Buffer.from(raw, 'base64url').toString()) as PendingAuth;
    return pending.provider === provider ? pending : null;
  } catch {
    return null;
  }
}

/** Where an account that may not sign in yet is sent. */
function notActiveRedirect(status: string): string {
  if (status === 'pending_approval') return '/approval-pending';
  return status === 'rejected' ? '/login?error=account_rejected' : '/login?error=not_approved';
}

/** GET /auth/{provider}/callback: verifies everything, then signs in, or explains why not. */
async function callback(c: Context<AppEnv>, provider: ProviderName) {
  const { config, db, logger } = c.var.deps;
  const settings = providerSettings(config, provider);
  if (!settings) return c.redirect('/login?error=google_not_configured');
  const pending = await readPending(c, provider);
  if (!pending) return c.redirect('/login?error=google_auth_failed');
  const url = new URL(c.req.url);
  const callbackUrl = new URL(`${config.appUrl}${url.pathname}${url.search}`);
  const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') };
  const result = await completeExternalSignIn(db, config.appUrl, { settings, callbackUrl, checks: pending }, client);
  if (result.outcome === 'failed') {
    logger.warn({ err: result.error, provider }, 'external sign-in failed');
    return c.redirect('/login?error=google_auth_failed');
  }
  if (result.outcome === 'not_active') return c.redirect(notActiveRedirect(result.status));
  setSessionCookie(c, result.token);
  if (result.stage === 'two_factor') return c.redirect(codeStepUrl(pending.next));
  if (result.stage === 'two_factor_setup') return c.redirect(TWO_FACTOR_SETUP_PATH);
  setFlash(c, 'signed_in');
  return c.redirect(pending.next);
}

/** Google and generic OIDC sign-in routes. */
export function oidcRoutes() {
  const app = new Hono<AppEnv>();
  for (const provider of ['google', 'oidc'] as const) {
    app.get(`/auth/${provider}`, publicRoute(), (c) => start(c, provider));
    app.get(`/auth/${provider}/callback`, publicRoute(), (c) => callback(c, provider));
  }
  return app;
}
