import type { ReactNode } from 'react';
import { ROLES } from '../../auth/policy';
import { Badge, Banner, Card } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import { roleLabel } from '../../ui/Sidebar';
import type { Account } from '../accounts';
import type { SecuritySettings } from '../security-settings';

const statusBadges: Record<Account['status'], [string, 'green' | 'yellow' | 'red' | 'neutral']> = {
  active: ['Active', 'green'],
  pending_verification: ['Pending verification', 'yellow'],
  pending_approval: ['Pending approval', 'yellow'],
  rejected: ['Rejected', 'red'],
  deactivated: ['Deactivated', 'neutral'],
};

/** A one-button form: posts to `action` and comes back with a redirect (works without JavaScript). */
function PostButton({
  action,
  label,
  children,
  danger,
  fields = {},
}: {
  action: string;
  label: string;
  children: ReactNode;
  danger?: boolean;
  fields?: Record<string, string>;
}) {
  return (
    <form method="post" action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={`btn btn--sm${danger ? ' btn--danger' : ''}`} aria-label={label}>
        {children}
      </button>
    </form>
  );
}

function RoleForm({ account }: { account: Account }) {
  const id = `role-${account.id}`;
  return (
    <form method="post" action={`/admin/users/${account.id}/role`} className="row users-role">
      <label className="visually-hidden" htmlFor={id}>
        {`Role of ${account.name}`}
      </label>
      <select id={id} name="role" className="select" defaultValue={account.role}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {roleLabel(r)}
          </option>
        ))}
      </select>
      <button type="submit" className="btn btn--sm" aria-label={`Save role of ${account.name}`}>
        Save
      </button>
    </form>
  );
}

function AccountActions({ account, self }: { account: Account; self: boolean }) {
  const base = `/admin/users/${account.id}`;
  return (
    <div className="row users-actions">
      {account.status === 'active' && (
        <PostButton
          action={`${base}/status`}
          fields={{ status: 'deactivated' }}
          label={`Deactivate ${account.name}${self ? ' (you)' : ''}`}
          danger
        >
          Deactivate
        </PostButton>
      )}
      {account.status === 'deactivated' && (
        <PostButton action={`${base}/status`} fields={{ status: 'active' }} label={`Reactivate ${account.name}`}>
          Reactivate
        </PostButton>
      )}
      {account.twoFactorEnabled && (
        <PostButton action={`${base}/reset-2fa`} label={`Reset two-factor sign-in of ${account.name}`}>
          Reset 2FA
        </PostButton>
      )}
      {!account.isEmailVerified && (
        <PostButton action={`${base}/resend-verification`} label={`Resend verification email to ${account.name}`}>
          Resend verification
        </PostButton>
      )}
    </div>
  );
}

function AccountRow({ account, self, timeZone }: { account: Account; self: boolean; timeZone: string }) {
  const [status, colour] = statusBadges[account.status];
  return (
    <tr>
      <th scope="row" data-label="Name">
        <span>
          {account.name}
          {self && <span className="muted small"> (you)</span>}
        </span>
      </th>
      <td data-label="Email">{account.email}</td>
      <td data-label="Role">
        <RoleForm account={account} />
      </td>
      <td data-label="Status">
        <Badge colour={colour}>{status}</Badge>
      </td>
      <td data-label="Last sign-in">
        {account.lastSignInAt ? formatDateTime(account.lastSignInAt, timeZone) : 'Never'}
      </td>
      <td data-label="2FA">
        <Badge colour={account.twoFactorEnabled ? 'green' : 'neutral'}>{account.twoFactorEnabled ? 'On' : 'Off'}</Badge>
      </td>
      <td data-label="Actions">
        <AccountActions account={account} self={self} />
      </td>
    </tr>
  );
}

function SecurityForm({ settings }: { settings: SecuritySettings }) {
  return (
    <Card title="Sign-in security" subtitle="Rules for every account in this workspace">
      <form method="post" action="/admin/users/settings" className="stack">
        <label className="users-check">
          <input type="checkbox" name="requireTwoFactor" value="on" defaultChecked={settings.requireTwoFactor} />
          Require two-factor sign-in for everyone
        </label>
        <label className="users-check">
          <input
            type="checkbox"
            name="twoFactorForExternal"
            value="on"
            defaultChecked={settings.twoFactorForExternal}
          />
          Ask for the code after Google/OIDC sign-in
        </label>
        <div>
          <button type="submit" className="btn btn--primary btn--sm">
            Save settings
          </button>
        </div>
      </form>
    </Card>
  );
}

export interface UsersPageProps {
  accounts: Account[];
  settings: SecuritySettings;
  selfId: string;
  timeZone: string;
  banner?: { variant: 'success' | 'error'; text: string } | null;
}

/** /admin/users: every account with its role, status, last sign-in and 2FA, their actions, and the security settings. */
export function UsersPage({ accounts, settings, selfId, timeZone, banner }: UsersPageProps) {
  return (
    <div className="stack users-admin">
      {banner && <Banner variant={banner.variant}>{banner.text}</Banner>}
      <Card
        title="Accounts"
        subtitle={`${accounts.length} ${accounts.length === 1 ? 'account' : 'accounts'}; times in ${timeZone}`}
      >
        <div className="table-wrap">
          <table className="table users-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">2FA</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <AccountRow key={a.id} account={a} self={a.id === selfId} timeZone={timeZone} />
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <SecurityForm settings={settings} />
    </div>
  );
}
