import { Field } from '../../ui/components';
import { SIGN_IN_EXPIRED, SIGN_IN_LOCKED } from '../two-factor-signin';
import { AuthCard, PasswordInput, ProviderButtons, type BannerSpec, type Providers } from './AuthCard';

const errorBanners: Record<string, string> = {
  google_auth_failed: 'Google authentication failed. Please try again.',
  pending_approval: 'Your account is pending admin approval. Please wait for approval.',
  account_rejected: 'Your account has been rejected. Please contact support.',
  not_approved: 'Your account is not approved for login.',
  google_not_configured: 'Google authentication is not configured.',
  two_factor_locked: SIGN_IN_LOCKED,
  two_factor_expired: SIGN_IN_EXPIRED,
};

/** Spec §8 login URL banners: `error` (with `message` overriding) and `success=account_created`. */
export function loginBanner(q: { error?: string; success?: string; message?: string }): BannerSpec | null {
  const message = q.message?.trim().slice(0, 300) || undefined;
  if (q.error)
    return { variant: 'error', text: message ?? errorBanners[q.error] ?? 'Authentication failed. Please try again.' };
  if (q.success === 'account_created') return { variant: 'success', text: message ?? 'Account created successfully!' };
  if (q.success && message) return { variant: 'success', text: message };
  return null;
}

export interface LoginPageProps {
  banner?: BannerSpec | null;
  email?: string;
  errors?: Record<string, string>;
  next?: string;
  providers: Providers;
}

/** /login: provider buttons, e-mail + password form, links to /forgot-password and /register. */
export function LoginPage({ banner, email, errors = {}, next, providers }: LoginPageProps) {
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to your Ops Hub account" banner={banner}>
      <ProviderButtons verb="Sign in" next={next} providers={providers} divider="or continue with email" />
      <form className="form" method="post" action="/login" noValidate>
        {next && next !== '/' && <input type="hidden" name="next" value={next} />}
        <Field label="Email" htmlFor="email" error={errors.email}>
          <input
            className="input"
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={email}
            aria-invalid={errors.email ? true : undefined}
          />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.password}>
          <PasswordInput id="password" name="password" autoComplete="current-password" error={errors.password} />
        </Field>
        <div className="auth-row">
          <a href="/forgot-password">Forgot password?</a>
        </div>
        <button className="btn btn--primary" type="submit">
          Sign In
        </button>
      </form>
      <p className="auth-card__footer">
        Don't have an account? <a href="/register">Sign up</a>
      </p>
    </AuthCard>
  );
}
