import { Field } from '../../ui/components';
import { AuthCard, PasswordInput, type BannerSpec } from './AuthCard';

/** /forgot-password: one e-mail field; afterwards the same "Check Your Email" answer for every address. */
export function ForgotPasswordPage({
  email,
  error,
  sent,
  banner,
}: {
  email?: string;
  error?: string;
  sent?: boolean;
  banner?: BannerSpec | null;
}) {
  if (sent) {
    return (
      <AuthCard
        title="Check Your Email"
        icon="mail"
        subtitle="If an account exists for that email, we've sent a link to reset the password."
      >
        <p className="auth-card__text">The link expires in 1 hour and works once.</p>
        <a className="btn btn--primary" href="/login">
          Back to Login
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your email and we'll send you a link to reset it."
      banner={banner}
    >
      <form className="form" method="post" action="/forgot-password" noValidate>
        <Field label="Email" htmlFor="email" error={error}>
          <input
            className="input"
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={email}
            aria-invalid={error ? true : undefined}
          />
        </Field>
        <button className="btn btn--primary" type="submit">
          Send Reset Link
        </button>
      </form>
      <p className="auth-card__footer">
        Remembered it? <a href="/login">Back to Login</a>
      </p>
    </AuthCard>
  );
}

/** /reset-password?token=…: new password twice; a missing token shows "Invalid Link". */
export function ResetPasswordPage({
  token,
  errors = {},
  banner,
}: {
  token?: string;
  errors?: Record<string, string>;
  banner?: BannerSpec | null;
}) {
  if (!token) {
    return (
      <AuthCard title="Invalid Link" icon="alert" subtitle="This password reset link is invalid or incomplete.">
        <a className="btn btn--primary" href="/forgot-password">
          Request a New Link
        </a>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" subtitle="Your new password must be at least 8 characters." banner={banner}>
      <form className="form" method="post" action="/reset-password" noValidate>
        <input type="hidden" name="token" value={token} />
        <Field label="New password" htmlFor="password" error={errors.password}>
          <PasswordInput id="password" name="password" autoComplete="new-password" error={errors.password} />
        </Field>
        <Field label="Confirm new password" htmlFor="confirmPassword" error={errors.confirmPassword}>
          <PasswordInput
            id="confirmPassword"
            name="confirmPassword"
            autoComplete="new-password"
            error={errors.confirmPassword}
          />
        </Field>
        <button className="btn btn--primary" type="submit">
          Reset Password
        </button>
      </form>
      {banner?.variant === 'error' && (
        <p className="auth-card__footer">
          <a href="/forgot-password">Request a new link</a>
        </p>
      )}
    </AuthCard>
  );
}
