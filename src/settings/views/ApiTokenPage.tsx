import { Banner, Card } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';
import type { PersonalToken } from '../api-tokens';
import { NewTokenForm, scopeLabel, type TokenFormState } from './ApiTokensSection';

export interface ApiTokenPageProps {
  /** The token just created, with its secret: this page is the only place it is ever shown. */
  created?: PersonalToken & { token: string };
  /** The create form sent back with its errors (422). */
  form?: TokenFormState;
  timeZone: string;
  /** The copy script (the read page's: it wires `.code-block` copy buttons); absent when the build has none. */
  script?: string;
}

function CreatedToken({ created, timeZone }: { created: PersonalToken & { token: string }; timeZone: string }) {
  const expires = created.expiresAt ? `expires ${formatDateTime(created.expiresAt, timeZone)}` : 'never expires';
  return (
    <div className="stack">
      <Banner variant="success">
        Copy the token now: it is shown only once. If you lose it, revoke it and create a new one.
      </Banner>
      <p>{`${created.name} · ${scopeLabel(created.scope)} · ${expires}`}</p>
      <div className="code-block">
        <pre id="new-api-token">
          <code>{created.token}</code>
        </pre>
        {/* Hidden until the script wires it: without JavaScript, select the token and copy it by hand. */}
        <button type="button" className="btn btn--secondary btn--sm code-block__copy" data-copy-code hidden>
          Copy
        </button>
      </div>
    </div>
  );
}

/** The answer to Settings › API tokens › Create: the new token once, or the form again with what to fix. */
export function ApiTokenPage({ created, form, timeZone, script }: ApiTokenPageProps) {
  return (
    <div className="stack settings">
      <Card title={created ? 'API Token Created' : 'Create API Token'}>
        <div className="stack">
          {created ? <CreatedToken created={created} timeZone={timeZone} /> : <NewTokenForm state={form} />}
          <p>
            <a href="/settings#api-tokens">Back to Settings</a>
          </p>
        </div>
      </Card>
      {created && script && <script type="module" src={script} />}
    </div>
  );
}
