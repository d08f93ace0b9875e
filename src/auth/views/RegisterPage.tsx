import { Field } from '../../ui/components';
import { AuthCard, PasswordInput, ProviderButtons, type BannerSpec, type Providers } from './AuthCard';

export interface RegisterPageProps {
  values?: { firstName?: string; lastName?: string; email?: string };
  errors?: Record<string, string>;
  banner?: BannerSpec | null;
  providers: Providers;
}

/** /register: provider button and the sign-up form (spec §2 Register). */
export function RegisterPage({ values = {}, errors = {}, banner, providers }: RegisterPageProps) {
  const invalid = (k: string) => (errors[k] ? true : undefined);
  return (
    <AuthCard
      title="Create your account"
      subtitle="Join Ops Hub to manage your infrastructure documentation"
      banner={banner}
    >
      <ProviderButtons verb="Sign up" providers={providers} divider="or register with email" />
      <form className="form" method="post" action="/register" noValidate>
        <div className="form-grid">
          <Field label="First name" htmlFor="firstName" error={errors.firstName}>
            <input
              className="input"
              id="firstName"
              name="firstName"
              autoComplete="given-name"
              required
              defaultValue={values.firstName}
              aria-invalid={invalid('firstName')}
            />
          </Field>
          <Field label="Last name" htmlFor="lastName" error={errors.lastName}>
            <input
              className="input"
              id="lastName"
              name="lastName"
              autoComplete="family-name"
              required
              defaultValue={values.lastName}
              aria-invalid={invalid('lastName')}
            />
          </Field>
        </div>
        <Field label="Email" htmlFor="email" error={errors.email}>
          <input
            className="input"
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={values.email}
            aria-invalid={invalid('email')}
          />
        </Field>
        <Field label="Password" htmlFor="password" error={errors.password} hint="At least 8 characters">
          <PasswordInput id="password" name="password" autoComplete="new-password" error={errors.password} />
        </Field>
        <Field label="Confirm password" htmlFor="confirmPassword" error={errors.confirmPassword}>
          <PasswordInput
            id="confirmPassword"
            name="confirmPassword"
            autoComplete="new-password"
            error={errors.confirmPassword}
          />
        </Field>
        <button className="btn btn--primary" type="submit">
          Create Account
        </button>
      </form>
      <p className="auth-card__footer">
        Already have an account? <a href="/login">Sign in</a>
      </p>
    </AuthCard>
  );
}

/** After registering: "Check Your Email" with a Go to Login button. */
export function CheckEmailPage() {
  return (
    <AuthCard title="Check Your Email" icon="mail" subtitle="We've sent a verification link to your email address.">
      <p className="auth-card__text">
        Click the link in the email to verify your account. The link expires in 24 hours.
      </p>
      <a className="btn btn--primary" href="/login">
        Go to Login
      </a>
    </AuthCard>
  );
}
