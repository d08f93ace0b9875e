import { Badge, Card, Field } from '../../ui/components';
import { ConfirmDialog } from '../../ui/Dialog';
import { formatDate, formatDateTime, relativeTime } from '../../ui/shared';
import { TOKEN_EXPIRY_DAYS, type PersonalToken } from '../api-tokens';

/** The id htmx swaps after a revoke. */
export const API_TOKENS_ID = 'api-tokens';

export interface TokenFormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

export const scopeLabel = (scope: string) => (scope === 'read-write' ? 'Read and write' : 'Read only');

/** Name, scope and expiry of a new token; POSTs plainly, the answer is the page that shows the token once. */
export function NewTokenForm({ state }: { state?: TokenFormState }) {
  const v = state?.values ?? {};
  const e = state?.errors ?? {};
  return (
    <form method="post" action="/settings/tokens" className="form" aria-label="Create API token">
      <div className="form-grid grid--2">
        <Field label="Token name" htmlFor="token-name" error={e.name} hint="What it is for, e.g. backup script.">
          <input
            id="token-name"
            className="input"
            name="name"
            defaultValue={v.name}
            required
            maxLength={100}
            autoComplete="off"
            aria-invalid={e.name ? true : undefined}
          />
        </Field>
        <Field label="Scope" htmlFor="token-scope" error={e.scope}>
          <select id="token-scope" className="select" name="scope" defaultValue={v.scope ?? 'read'}>
            <option value="read">{scopeLabel('read')}</option>
            <option value="read-write">{scopeLabel('read-write')}</option>
          </select>
        </Field>
        <Field label="Expires" htmlFor="token-expiry" error={e.expiresInDays}>
          <select id="token-expiry" className="select" name="expiresInDays" defaultValue={v.expiresInDays ?? '90'}>
            {TOKEN_EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>{`In ${d} days`}</option>
            ))}
            <option value="">Never</option>
          </select>
        </Field>
      </div>
      <div className="row settings-actions">
        <button type="submit" className="btn btn--primary">
          Create Token
        </button>
      </div>
    </form>
  );
}

function TokenRow({ token, timeZone, now }: { token: PersonalToken; timeZone: string; now: Date }) {
  const expired = !!token.expiresAt && new Date(token.expiresAt) <= now;
  return (
    <tr>
      <td>{token.name}</td>
      <td>
        <Badge colour={token.scope === 'read-write' ? 'yellow' : 'neutral'} outline>
          {scopeLabel(token.scope)}
        </Badge>
      </td>
      <td title={formatDateTime(token.createdAt, timeZone)}>{formatDate(token.createdAt, timeZone)}</td>
      <td title={token.expiresAt ? formatDateTime(token.expiresAt, timeZone) : undefined}>
        {token.expiresAt ? formatDate(token.expiresAt, timeZone) : 'Never'}
        {expired && (
          <>
            {' '}
            <Badge colour="red">Expired</Badge>
          </>
        )}
      </td>
      <td title={token.lastUsedAt ? formatDateTime(token.lastUsedAt, timeZone) : undefined}>
        {token.lastUsedAt ? relativeTime(token.lastUsedAt, now) : 'Never'}
      </td>
      <td>
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          data-open-dialog={`revoke-token-${token.id}`}
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

export interface ApiTokensSectionProps {
  tokens: PersonalToken[];
  timeZone: string;
  now: Date;
}

/** Settings › API tokens: the user's own tokens (never their secrets), revoke with confirmation, create. */
export function ApiTokensSection({ tokens, timeZone, now }: ApiTokensSectionProps) {
  return (
    <div id={API_TOKENS_ID}>
      <Card
        title="API Tokens"
        subtitle="Personal tokens for scripts: send Authorization: Bearer <token> to the JSON API. A token acts as you, limited by its scope."
      >
        <div className="stack">
          {tokens.length === 0 ? (
            <p className="muted">You have no API tokens.</p>
          ) : (
            <div className="table-wrap">
              <table className="table" aria-label="API tokens">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Created</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {tokens.map((t) => (
                    <TokenRow key={t.id} token={t} timeZone={timeZone} now={now} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <hr className="divider" />
          <NewTokenForm />
        </div>
      </Card>
      {tokens.map((t) => (
        <ConfirmDialog
          key={t.id}
          id={`revoke-token-${t.id}`}
          title="Revoke API Token"
          question={`Are you sure you want to revoke ${t.name}? Scripts using it stop working at once. This action cannot be undone.`}
          action={`/settings/tokens/${t.id}/revoke`}
          submit="Revoke"
          form={{ 'hx-target': `#${API_TOKENS_ID}`, 'hx-swap': 'outerHTML' }}
        />
      ))}
    </div>
  );
}
