import { generate } from 'lean-qr';
import { toSvgPath } from 'lean-qr/extras/svg';
import type { TwoFactorState } from '../../auth/service';
import { Banner, Card, Field } from '../../ui/components';
import { formatDateTime } from '../../ui/shared';

export interface TwoFactorSectionProps {
  state: TwoFactorState;
  timezone: string;
  /** Just turned on: the recovery codes, shown this once. */
  recoveryCodes?: string[];
  /** The refusal of the code just typed. */
  error?: string;
  /** Where "Done" goes after the recovery codes. */
  doneUrl?: string;
}

/** The otpauth:// URI as a QR code, drawn on the server as inline SVG (a quiet zone of four modules). */
function QrCode({ text }: { text: string }) {
  const code = generate(text);
  const pad = 4;
  const size = code.size + pad * 2;
  return (
    <svg
      className="two-factor__qr"
      viewBox={`${-pad} ${-pad} ${size} ${size}`}
      role="img"
      aria-label="QR code to scan with your authenticator app"
      shapeRendering="crispEdges"
    >
      <rect x={-pad} y={-pad} width={size} height={size} fill="#fff" />
      <path d={toSvgPath(code)} fill="#000" />
    </svg>
  );
}

function CodeField({ error }: { error?: string }) {
  return (
    <Field label="Authentication code" htmlFor="two-factor-code" error={error}>
      <input
        id="two-factor-code"
        className="input"
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={64}
        required
        aria-invalid={error ? true : undefined}
      />
    </Field>
  );
}

function RecoveryCodes({ codes, doneUrl = '/settings' }: { codes: string[]; doneUrl?: string }) {
  return (
    <div className="stack">
      <Banner variant="success">Two-factor sign-in is on.</Banner>
      <p>
        Save these recovery codes somewhere safe. Each one works once instead of a code from your app, should you lose
        your phone. <strong>They are shown only now.</strong>
      </p>
      <ol className="two-factor__codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="row settings-actions">
        <a className="btn btn--primary" href={doneUrl}>
          Done
        </a>
      </div>
    </div>
  );
}

function Enrol({ pending, error }: { pending: NonNullable<TwoFactorState['pending']>; error?: string }) {
  return (
    <div className="stack">
      <p>Scan this QR code with an authenticator app (such as 1Password, Google Authenticator or Aegis):</p>
      <QrCode text={pending.otpauthUrl} />
      <p>
        Or enter this key by hand: <code id="two-factor-secret">{pending.secret}</code>
      </p>
      <form method="post" action="/settings/two-factor/enable" className="form" aria-label="Confirm two-factor set-up">
        <CodeField error={error} />
        <div className="row settings-actions">
          <button type="submit" className="btn btn--primary">
            Turn on
          </button>
        </div>
      </form>
    </div>
  );
}

function Enabled({ state, timezone, error }: TwoFactorSectionProps) {
  const left = state.recoveryCodesLeft;
  return (
    <div className="stack">
      <p>
        <strong>On</strong> since {formatDateTime(state.enabledAt, timezone)}.{' '}
        {`${left} recovery code${left === 1 ? '' : 's'} left.`}
      </p>
      {state.required ? (
        <p className="muted">Two-factor sign-in is required in this workspace.</p>
      ) : (
        <form method="post" action="/settings/two-factor/disable" className="form" aria-label="Turn off two-factor">
          <CodeField error={error} />
          <div className="row settings-actions">
            <button type="submit" className="btn btn--danger">
              Turn off
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

function Off({ required }: { required: boolean }) {
  return (
    <form method="post" action="/settings/two-factor/setup" className="stack">
      <p>
        {required
          ? 'Two-factor sign-in is required in this workspace. Set it up to continue.'
          : 'Add a second step to signing in: a code from an authenticator app on your phone.'}
      </p>
      <div className="row settings-actions">
        <button type="submit" className="btn btn--primary">
          Set up two-factor sign-in
        </button>
      </div>
    </form>
  );
}

/** Settings › Security › Two-factor sign-in: set up (QR code, key, confirm), recovery codes once, turn off. */
export function TwoFactorSection(props: TwoFactorSectionProps) {
  const { state, recoveryCodes, error } = props;
  return (
    <div id="two-factor" className="two-factor">
      <Card title="Two-factor sign-in" subtitle="A code from your phone after your password">
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} doneUrl={props.doneUrl} />
        ) : state.enabledAt ? (
          <Enabled {...props} />
        ) : state.pending ? (
          <Enrol pending={state.pending} error={error} />
        ) : (
          <Off required={state.required} />
        )}
      </Card>
    </div>
  );
}
