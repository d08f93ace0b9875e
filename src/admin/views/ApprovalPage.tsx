import { Fragment } from 'react';
import { DENIED_MESSAGE, ROLES } from '../../auth/policy';
import { Badge, Banner, Card, EmptyState } from '../../ui/components';
import { ConfirmDialog } from '../../ui/Dialog';
import { formatDateTime, relativeTime } from '../../ui/shared';
import { Icon } from '../../ui/icons';
import { roleLabel } from '../../ui/Sidebar';
import type { PendingUser } from '../service';

const nameOf = (u: PendingUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email;
const providerLabel = (p: string) => ({ local: 'Email', google: 'Google', oidc: 'SSO' })[p] ?? p;

/** Approve or reject one user: with htmx the list is swapped, without it the form POSTs and comes back (303). */
function DecisionDialog({ user, decision }: { user: PendingUser; decision: 'approve' | 'reject' }) {
  const approve = decision === 'approve';
  const consequence = approve ? 'They will be able to sign in.' : 'They will not be able to sign in.';
  return (
    <ConfirmDialog
      id={`${decision}-${user.id}`}
      title={approve ? 'Approve User' : 'Reject User'}
      question={`Are you sure you want to ${decision} ${nameOf(user)} (${user.email})? ${consequence}`}
      action={`/admin/approval/${user.id}/${decision}`}
      submit={approve ? 'Approve' : 'Reject'}
      danger={!approve}
      form={{ id: `${decision}-form-${user.id}`, 'hx-target': '#pending-users', 'hx-swap': 'outerHTML' }}
    />
  );
}

function PendingRow({ user, now, timeZone }: { user: PendingUser; now: Date; timeZone: string }) {
  return (
    <tr>
      <td>
        <div className="approval-user">
          <span className="approval-user__name">{nameOf(user)}</span>
          <span className="muted small">{roleLabel(user.role)}</span>
        </div>
      </td>
      <td>{user.email}</td>
      <td>
        <Badge outline>{providerLabel(user.authProvider)}</Badge>
      </td>
      <td title={formatDateTime(user.createdAt, timeZone)}>{relativeTime(user.createdAt, now)}</td>
      <td>
        <div className="row approval-status">
          <Badge colour="yellow">Pending</Badge>
          {user.isEmailVerified && <Badge colour="green">Verified</Badge>}
        </div>
      </td>
      <td>
        <label className="visually-hidden" htmlFor={`approve-role-${user.id}`}>
          {`Role for ${nameOf(user)}`}
        </label>
        {/* Belongs to the Approve dialog's form (form attribute): the role they get when approved. */}
        <select
          id={`approve-role-${user.id}`}
          name="role"
          className="select"
          form={`approve-form-${user.id}`}
          defaultValue="editor"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {roleLabel(r)}
            </option>
          ))}
        </select>
      </td>
      <td>
        <div className="row approval-actions">
          <button
            type="button"
            className="btn btn--primary btn--sm"
            data-open-dialog={`approve-${user.id}`}
            aria-label={`Approve ${nameOf(user)}`}
          >
            <Icon name="check" />
            Approve
          </button>
          <button
            type="button"
            className="btn btn--danger btn--sm"
            data-open-dialog={`reject-${user.id}`}
            aria-label={`Reject ${nameOf(user)}`}
          >
            <Icon name="x" />
            Reject
          </button>
        </div>
      </td>
    </tr>
  );
}

/** The list region (count, table or "All caught up!", dialogs); htmx swaps it after each decision. Times in the admin's timezone. */
export function PendingUsersRegion({
  users,
  timeZone,
  now = new Date(),
  banner,
}: {
  users: PendingUser[];
  timeZone: string;
  now?: Date;
  banner?: { variant: 'success' | 'error'; text: string } | null;
}) {
  const count = users.length;
  return (
    <div id="pending-users" className="stack approval">
      {banner && <Banner variant={banner.variant}>{banner.text}</Banner>}
      <Card
        title="Pending Approvals"
        subtitle={
          <span className="approval-count">{`${count} ${count === 1 ? 'user' : 'users'} pending approval`}</span>
        }
      >
        {count === 0 ? (
          <EmptyState icon="check" title="All caught up!" text="There are no users waiting for approval." />
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Email</th>
                  <th scope="col">Auth Provider</th>
                  <th scope="col">Requested</th>
                  <th scope="col">Status</th>
                  <th scope="col">Role</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <PendingRow key={u.id} user={u} now={now} timeZone={timeZone} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {users.map((u) => (
        <Fragment key={u.id}>
          <DecisionDialog user={u} decision="approve" />
          <DecisionDialog user={u} decision="reject" />
        </Fragment>
      ))}
    </div>
  );
}

/** Non-admins (or a failed load) see this card instead of the list. */
export function AccessDenied({ message }: { message?: string }) {
  return (
    <Card className="access-denied">
      <EmptyState icon="shield" title="Access Denied" text={message || DENIED_MESSAGE}>
        <a className="btn btn--secondary" href="/">
          Back to Dashboard
        </a>
      </EmptyState>
    </Card>
  );
}
