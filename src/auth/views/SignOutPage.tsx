import { AuthCard } from './AuthCard';

/** Shown when /api/logout was reached from another site: signing out needs a click here (a same-origin POST). */
export function SignOutPage() {
  return (
    <AuthCard title="Sign out?" icon="logout" subtitle="Do you want to sign out of Ops Hub?">
      <form className="form" method="post" action="/api/auth/logout">
        <button className="btn btn--primary" type="submit">
          Sign out
        </button>
      </form>
      <p className="auth-card__footer">
        <a href="/">Stay signed in</a>
      </p>
    </AuthCard>
  );
}
