import { Field } from '../../ui/components';
import { AuthCard, type BannerSpec } from './AuthCard';

export interface TwoFactorPageProps {
  next?: string;
  error?: string;
  banner?: BannerSpec | null;
}

/** /login/two-factor: the code from the authenticator app (or a recovery code) after the password. */
export function TwoFactorPage({ next, error, banner }: TwoFactorPageProps) {
  return (
    <AuthCard
      title="Two-factor sign-in"
      subtitle="Enter the 6-digit code from your authenticator app, or one of your recovery codes."
      icon="lock"
      banner={banner}
    >
      <form className="form" method="post" action="/login/two-factor" noValidate>
        {next && next !== '/' && <input type="hidden" name="next" value={next} />}
        <Field label="Authentication code" htmlFor="code" error={error}>
          <input
            className="input"
            id="code"
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={64}
            required
            // biome-ignore lint/a11y/noAutofocus: the only field of the page, reached right after the password
            autoFocus
            aria-invalid={error ? true : undefined}
          />
        </Field>
        <button className="btn btn--primary" type="submit">
          Verify
        </button>
      </form>
      <form method="post" action="/login/two-factor/cancel" className="auth-card__footer">
        <button type="submit" className="btn btn--ghost">
          Cancel and sign in again
        </button>
      </form>
    </AuthCard>
  );
}
