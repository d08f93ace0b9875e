import { AuthCard } from './AuthCard';

/** /approval-pending: the timeline Email Verified → Pending Approval → Account Active (spec §2). */
export function ApprovalPendingPage() {
  return (
    <AuthCard
      title="Approval Pending"
      icon="clock"
      subtitle="Your account is waiting for an administrator to approve it."
    >
      <ol className="timeline auth-timeline" aria-label="Account status">
        <li className="timeline__step timeline__step--done">
          <span className="timeline__label">Email Verified</span>
          <span className="timeline__note">Your email address has been confirmed.</span>
        </li>
        <li className="timeline__step timeline__step--current" aria-current="step">
          <span className="timeline__label">Pending Approval</span>
          <span className="timeline__note">An administrator is reviewing your request.</span>
        </li>
        <li className="timeline__step">
          <span className="timeline__label">Account Active</span>
          <span className="timeline__note">You can sign in and start using Ops Hub.</span>
        </li>
      </ol>
      <div className="banner banner--info auth-note" role="note">
        An administrator will review your account request. You will receive an email once your account is approved.
        Approval typically takes 1-2 business days.
      </div>
      <div className="stack auth-actions">
        <a className="btn btn--primary" href="/login">
          Try Login Again
        </a>
        <a className="btn btn--secondary" href="/">
          Back to Home
        </a>
      </div>
    </AuthCard>
  );
}
