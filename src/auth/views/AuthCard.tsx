import type { ReactNode } from 'react';
import { Banner } from '../../ui/components';
import { Icon, type IconName } from '../../ui/icons';

export interface BannerSpec {
  variant: 'error' | 'success' | 'info';
  text: string;
}

/** The frame of every public account page: brand, one card, an optional icon, title, subtitle and banner. */
export function AuthCard({
  title,
  subtitle,
  icon,
  banner,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  icon?: IconName;
  banner?: BannerSpec | null;
  children: ReactNode;
}) {
  return (
    <main className="auth-page">
      <a className="auth-brand" href="/">
        <Icon name="zap" />
        <span>Ops Hub</span>
      </a>
      <section className="auth-card" aria-labelledby="auth-title">
        {icon && (
          <div className="auth-card__icon">
            <Icon name={icon} />
          </div>
        )}
        <h1 className="auth-card__title" id="auth-title">
          {title}
        </h1>
        {subtitle && <p className="auth-card__subtitle">{subtitle}</p>}
        {banner && <Banner variant={banner.variant}>{banner.text}</Banner>}
        {children}
      </section>
    </main>
  );
}

/** A password input with a show/hide toggle (the toggle appears once src/client/forms.ts runs). */
export function PasswordInput({
  id,
  name,
  autoComplete,
  error,
}: {
  id: string;
  name: string;
  autoComplete: string;
  error?: string;
}) {
  return (
    <div className="input-group">
      <input
        className="input"
        id={id}
        name={name}
        type="password"
        autoComplete={autoComplete}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <button
        type="button"
        className="icon-button"
        data-password-toggle
        aria-label="Show password"
        aria-pressed="false"
        hidden
      >
        <Icon name="eye" className="icon pw-show" />
        <Icon name="eye-off" className="icon pw-hide" />
      </button>
    </div>
  );
}

/** The external sign-in providers the server is configured for (a button for one that is not would only fail). */
export interface Providers {
  google: boolean;
  sso: boolean;
}

/**
 * "Sign in with Google" / "Sign in with SSO" buttons (plain links: full-page redirects) and the divider before the
 * e-mail form; nothing when no provider is configured.
 */
export function ProviderButtons({
  verb,
  next,
  providers,
  divider,
}: {
  verb: 'Sign in' | 'Sign up';
  next?: string;
  providers: Providers;
  divider: string;
}) {
  if (!providers.google && !providers.sso) return null;
  const q = next && next !== '/' ? `?next=${encodeURIComponent(next)}` : '';
  return (
    <>
      <div className="stack auth-providers">
        {providers.google && (
          <a className="btn btn--secondary" href={`/auth/google${q}`}>
            <Icon name="google" />
            {`${verb} with Google`}
          </a>
        )}
        {providers.sso && (
          <a className="btn btn--secondary" href={`/auth/oidc${q}`}>
            <Icon name="lock" />
            Sign in with SSO
          </a>
        )}
      </div>
      <Divider text={divider} />
    </>
  );
}

export const Divider = ({ text }: { text: string }) => <div className="divider">{text}</div>;
