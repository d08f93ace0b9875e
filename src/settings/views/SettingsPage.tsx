import type { ReactNode } from 'react';
import { Card, Field } from '../../ui/components';
import { formatDateTime, relativeTime } from '../../ui/shared';
import { AvatarForm } from './AvatarForm';
import { TwoFactorSection, type TwoFactorSectionProps } from './TwoFactorSection';
import { ApiTokensSection } from './ApiTokensSection';
import { ReportTeamField } from './ReportTeamField';
import { settingsDepartments, themeChoices, timezones, type Settings } from '../schemas';
import type { PersonalToken } from '../api-tokens';

export type Section = 'profile' | 'avatar' | 'notifications' | 'appearance' | 'password' | 'sessions' | 'delete';
export interface SettingsPageProps {
  s: Settings;
  /** Values and messages of the form that failed (422 re-render). */
  form?: { section: Section; values: Record<string, string>; errors: Record<string, string> };
  flash?: { title: string; text?: string };
  now: Date;
  /** Web Push: the server's VAPID public key and the settings-only script; null when the server has no keys. */
  push?: { publicKey: string; script: string } | null;
  /** Settings › Security › Two-factor sign-in. */
  twoFactor?: TwoFactorSectionProps;
  /** Settings › API tokens: the user's own personal tokens. */
  apiTokens?: PersonalToken[];
  /** The teams that own servers: what "Health report covers" offers besides every server. */
  reportTeams?: string[];
}

/** The hint under a disabled Push switch names what the server lacks. */
export const PUSH_UNAVAILABLE =
  'Not available: the server has no VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT set.';

function Switch({ name, label, hint, checked }: { name: string; label: string; hint: string; checked: boolean }) {
  return (
    <label className="settings-switch" htmlFor={`settings-${name}`}>
      <span>
        <span className="settings-switch__label">{label}</span>
        <span className="field__hint">{hint}</span>
      </span>
      <input
        id={`settings-${name}`}
        className="switch"
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: the native checkbox exposes its checked state
        role="switch"
        name={name}
        defaultChecked={checked}
      />
    </label>
  );
}

/**
 * Push notifications: without VAPID keys a disabled switch that says why. With them, the settings-only script
 * subscribes this browser when it is turned on and unsubscribes when it is turned off (no form field: the switch
 * is on only while a real subscription exists).
 */
function PushSwitch({ s, push }: SettingsPageProps) {
  return (
    <label className="settings-switch" htmlFor="settings-pushNotifications">
      <span>
        <span className="settings-switch__label">Push notifications</span>
        <span className="field__hint" id="settings-push-status" role="status">
          {push ? 'Browser notifications when servers go offline or come back online' : PUSH_UNAVAILABLE}
        </span>
      </span>
      <input
        id="settings-pushNotifications"
        className="switch"
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: the native checkbox exposes its checked state
        role="switch"
        defaultChecked={!!push && s.pushNotifications}
        disabled={!push}
        data-vapid-key={push?.publicKey}
      />
      {push && <script type="module" src={push.script} />}
    </label>
  );
}

function Save({ children = 'Save Changes' }: { children?: ReactNode }) {
  return (
    <div className="row settings-actions">
      <button type="submit" className="btn btn--primary">
        {children}
      </button>
    </div>
  );
}

function Profile({ s, form }: SettingsPageProps) {
  const v =
    form?.section === 'profile'
      ? form.values
      : { firstName: s.firstName, lastName: s.lastName, department: s.department, timezone: s.timezone };
  const e = form?.section === 'profile' ? form.errors : {};
  return (
    <Card title="Profile Information" subtitle="Your name, department and timezone">
      <AvatarForm
        name={s.firstName || s.email}
        imageUrl={s.profileImageUrl}
        error={form?.section === 'avatar' ? form.errors.avatar : undefined}
      />
      <form method="post" action="/settings/profile" className="form">
        <div className="form-grid grid--2">
          <Field label="First name" htmlFor="settings-firstName" error={e.firstName}>
            <input
              id="settings-firstName"
              className="input"
              name="firstName"
              defaultValue={v.firstName}
              required
              maxLength={100}
              aria-invalid={e.firstName ? true : undefined}
            />
          </Field>
          <Field label="Last name" htmlFor="settings-lastName" error={e.lastName}>
            <input
              id="settings-lastName"
              className="input"
              name="lastName"
              defaultValue={v.lastName}
              required
              maxLength={100}
              aria-invalid={e.lastName ? true : undefined}
            />
          </Field>
          <Field label="Email" htmlFor="settings-email" hint="Your sign-in address cannot be changed here.">
            <input id="settings-email" className="input" type="email" value={s.email} readOnly disabled />
          </Field>
          <Field label="Department" htmlFor="settings-department" error={e.department}>
            <select id="settings-department" className="select" name="department" defaultValue={v.department}>
              {settingsDepartments.map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          </Field>
          <Field
            label="Timezone"
            htmlFor="settings-timezone"
            error={e.timezone}
            hint="Dates and times are shown in this timezone."
          >
            <select id="settings-timezone" className="select" name="timezone" defaultValue={v.timezone}>
              {timezones.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </Field>
        </div>
        <Save />
      </form>
    </Card>
  );
}

function Notifications(props: SettingsPageProps) {
  const { s } = props;
  return (
    <Card title="Notifications" subtitle="What we tell you about, and how">
      <form method="post" action="/settings/notifications" className="form">
        <Switch
          name="emailNotifications"
          label="Email notifications"
          hint="Email me when servers go offline or come back online"
          checked={s.emailNotifications}
        />
        <PushSwitch {...props} />
        <Switch
          name="securityAlerts"
          label="Security alerts"
          hint="Email me when my password is changed or reset, or my other sessions are signed out"
          checked={s.securityAlerts}
        />
        <Switch
          name="healthReports"
          label="Scheduled health reports"
          hint="Receive the daily infrastructure health report by email"
          checked={s.healthReports}
        />
        <ReportTeamField
          saved={s.reportTeam}
          teams={props.reportTeams ?? []}
          failed={
            props.form?.section === 'notifications'
              ? { value: props.form.values.reportTeam ?? '', error: props.form.errors.reportTeam }
              : undefined
          }
        />
        <Save>Save Preferences</Save>
      </form>
    </Card>
  );
}

function Appearance({ s }: SettingsPageProps) {
  return (
    <Card title="Appearance & Preferences" subtitle="Theme and editor behaviour">
      <form method="post" action="/settings/appearance" className="form">
        <Field label="Theme" htmlFor="settings-theme">
          <select id="settings-theme" className="select" name="theme" defaultValue={s.theme}>
            {themeChoices.map((t) => (
              <option key={t} value={t}>
                {t === 'system' ? 'System' : t === 'light' ? 'Light' : 'Dark'}
              </option>
            ))}
          </select>
        </Field>
        <Switch
          name="autoSave"
          label="Auto-save documents"
          hint="Keep an unsaved draft in this browser while editing; when off, you are asked before leaving unsaved changes"
          checked={s.autoSave}
        />
        <Switch
          name="compactView"
          label="Compact view"
          hint="Show more content with less spacing"
          checked={s.compactView}
        />
        <Save>Save Preferences</Save>
      </form>
    </Card>
  );
}

function Security({ s, form, now }: SettingsPageProps) {
  const e = form?.section === 'password' ? form.errors : {};
  return (
    <Card title="Security" subtitle="Password and sessions">
      <div className="stack">
        <p>
          {s.hasPassword ? (
            <>
              Password last updated <strong>{relativeTime(s.passwordUpdatedAt, now)}</strong>
            </>
          ) : (
            'No password set: you sign in with a single sign-on provider. You can set one below.'
          )}
        </p>
        <form method="post" action="/settings/password" className="form" aria-label="Change password">
          <div className="form-grid grid--2">
            {s.hasPassword && (
              <Field label="Current password" htmlFor="settings-currentPassword" error={e.currentPassword}>
                <input
                  id="settings-currentPassword"
                  className="input"
                  type="password"
                  name="currentPassword"
                  autoComplete="current-password"
                  required
                  aria-invalid={e.currentPassword ? true : undefined}
                />
              </Field>
            )}
            <Field
              label="New password"
              htmlFor="settings-newPassword"
              error={e.newPassword}
              hint="At least 8 characters."
            >
              <input
                id="settings-newPassword"
                className="input"
                type="password"
                name="newPassword"
                autoComplete="new-password"
                required
                minLength={8}
                aria-invalid={e.newPassword ? true : undefined}
              />
            </Field>
            <Field label="Confirm new password" htmlFor="settings-confirmPassword" error={e.confirmPassword}>
              <input
                id="settings-confirmPassword"
                className="input"
                type="password"
                name="confirmPassword"
                autoComplete="new-password"
                required
                aria-invalid={e.confirmPassword ? true : undefined}
              />
            </Field>
          </div>
          <Save>Change Password</Save>
        </form>
        <hr className="divider" />
        <form method="post" action="/settings/sessions" className="row settings-sessions">
          <span className="muted">
            {s.otherSessions === 0
              ? 'You are not signed in anywhere else.'
              : `You are signed in on ${s.otherSessions} other session${s.otherSessions === 1 ? '' : 's'}.`}
          </span>
          <button type="submit" className="btn" disabled={s.otherSessions === 0}>
            Sign out other sessions
          </button>
        </form>
        <p className="muted small">{`Account created ${formatDateTime(s.createdAt, s.timezone)} (${s.timezone})`}</p>
      </div>
    </Card>
  );
}

function DangerZone({ s, form }: SettingsPageProps) {
  const e = form?.section === 'delete' ? form.errors : {};
  return (
    <Card title="Danger Zone" subtitle="Irreversible actions" className="settings-danger">
      <form method="post" action="/settings/delete-account" className="form">
        <p>
          Deleting your account removes your sign-in, sessions and preferences. Documents you wrote stay, without an
          author. This cannot be undone.
        </p>
        <Field label={`Type ${s.email} to confirm`} htmlFor="settings-confirmEmail" error={e.confirmEmail}>
          <input
            id="settings-confirmEmail"
            className="input"
            name="confirmEmail"
            autoComplete="off"
            required
            aria-invalid={e.confirmEmail ? true : undefined}
          />
        </Field>
        <div className="row settings-actions">
          <button type="submit" className="btn btn--danger">
            Delete my account
          </button>
        </div>
      </form>
    </Card>
  );
}

/** Settings: each section a plain form (POST → 303), saved per user on the server. */
export function SettingsPage(props: SettingsPageProps) {
  return (
    <div className="stack settings">
      {props.flash && (
        <div className="toast-region settings-flash">
          <div className="toast toast--success" role="status">
            <div className="toast__title">{props.flash.title}</div>
            {props.flash.text && <div className="toast__text">{props.flash.text}</div>}
          </div>
        </div>
      )}
      <Profile {...props} />
      <Notifications {...props} />
      <Appearance {...props} />
      <Security {...props} />
      {props.twoFactor && <TwoFactorSection {...props.twoFactor} />}
      {props.apiTokens && <ApiTokensSection tokens={props.apiTokens} timeZone={props.s.timezone} now={props.now} />}
      <DangerZone {...props} />
    </div>
  );
}
