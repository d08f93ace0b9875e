import type { VerifyResult } from '../service';
import { AuthCard } from './AuthCard';

export type VerifyState =
  | { kind: 'loading'; token: string }
  | { kind: 'missing' }
  | { kind: 'error'; message: string }
  | { kind: 'success'; result: VerifyResult };

/** /verify-email: "Verifying Email", "Invalid Link", "Verification Failed", or one of the two successes (spec §2). */
export function VerifyEmailPage({ state }: { state: VerifyState }) {
  switch (state.kind) {
    case 'loading': {
      const confirm = `/verify-email/confirm?token=${encodeURIComponent(state.token)}`;
      return (
        <div
          className="auth-swap"
          hx-get={confirm}
          hx-trigger="load"
          hx-target="this"
          hx-swap="outerHTML"
          hx-select=".auth-swap"
        >
          <AuthCard title="Verifying Email" icon="clock" subtitle="Please wait while we verify your email address...">
            <a className="btn btn--primary" href={confirm}>
              Verify my email
            </a>
          </AuthCard>
        </div>
      );
    }
    case 'missing':
      return (
        <Swap>
          <AuthCard title="Invalid Link" icon="alert" subtitle="This verification link is invalid or incomplete.">
            <a className="btn btn--primary" href="/login">
              Go to Login
            </a>
          </AuthCard>
        </Swap>
      );
    case 'error':
      return (
        <Swap>
          <AuthCard
            title="Verification Failed"
            icon="alert"
            subtitle={state.message || 'An error occurred during verification'}
          >
            <div className="stack auth-actions">
              <a className="btn btn--primary" href="/register">
                Register Again
              </a>
              <a className="btn btn--secondary" href="/login">
                Go to Login
              </a>
            </div>
          </AuthCard>
        </Swap>
      );
    case 'success':
      return state.result.status === 'pending_approval' ? (
        <Swap>
          <AuthCard title="Email Verified" icon="check" subtitle="Awaiting admin approval">
            <p className="auth-card__text">{state.result.message}</p>
            <a className="btn btn--primary" href="/approval-pending">
              View Status
            </a>
          </AuthCard>
        </Swap>
      ) : (
        <Swap>
          <AuthCard title="Verification Complete" icon="check" subtitle={state.result.message}>
            <a className="btn btn--primary" href="/login">
              Continue to Login
            </a>
          </AuthCard>
        </Swap>
      );
  }
}

const Swap = ({ children }: { children: React.ReactNode }) => <div className="auth-swap">{children}</div>;
