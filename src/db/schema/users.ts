import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common';
import { roles } from './values';

export const accountStatuses = [
  'pending_verification',
  'pending_approval',
  'active',
  'rejected',
  'deactivated',
] as const;

export const users = pgTable(
  'users',
  {
    id: id(),
    email: varchar('email', { length: 255 }).notNull().unique(),
    /** argon2id hash; null for accounts that only sign in through Google/OIDC. */
    password: text('password'),
    firstName: varchar('first_name', { length: 100 }),
    lastName: varchar('last_name', { length: 100 }),
    profileImageUrl: text('profile_image_url'),
    role: varchar('role', { length: 50, enum: roles }).notNull().default('editor'),
    authProvider: varchar('auth_provider', { length: 50 }).notNull().default('local'),
    /** Subject of the linked Google/OIDC identity ("issuer|sub"). */
    externalId: varchar('external_id', { length: 255 }).unique(),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    /** sha256 of the e-mailed token; the token itself is never stored. */
    emailVerificationToken: varchar('email_verification_token', { length: 64 }).unique(),
    emailVerificationExpires: timestamp('email_verification_expires', { withTimezone: true }),
    accountStatus: varchar('account_status', { length: 30, enum: accountStatuses })
      .notNull()
      .default('pending_verification'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: uuid('approved_by'),
    passwordResetToken: varchar('password_reset_token', { length: 64 }).unique(),
    passwordResetExpires: timestamp('password_reset_expires', { withTimezone: true }),
    passwordUpdatedAt: timestamp('password_updated_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /** TOTP secret (base32), set at setup; two-factor sign-in is on once twoFactorEnabledAt is set. */
    twoFactorSecret: text('two_factor_secret'),
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    /** The last TOTP time step accepted: a code is single-use within its window. */
    twoFactorLastStep: integer('two_factor_last_step'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('users_account_status_idx').on(t.accountStatus)],
);

/** What a session may do yet: all (null), or only finish two-factor sign-in or its set-up. */
export const sessionStages = ['two_factor', 'two_factor_setup'] as const;

/** Sessions: sid is the sha256 of the cookie token. */
export const sessions = pgTable(
  'sessions',
  {
    sid: varchar('sid', { length: 64 }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sess: jsonb('sess').$type<{ userAgent?: string; ip?: string }>().notNull().default({}),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
    /** Null for a full session; otherwise the step of sign-in still owed (password checked). */
    stage: varchar('stage', { length: 20, enum: sessionStages }),
    /** Wrong two-factor codes entered in this sign-in attempt (5 void it). */
    failedCodes: integer('failed_codes').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expire_idx').on(t.expire)],
);

export const themes = ['light', 'dark', 'system'] as const;

/** The timezone of a user who never saved one (spec §9). */
export const DEFAULT_TIMEZONE = 'Australia/Sydney';

export const userPreferences = pgTable('user_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  department: varchar('department', { length: 100 }).notNull().default('IT Operations'),
  timezone: varchar('timezone', { length: 64 }).notNull().default(DEFAULT_TIMEZONE),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  pushNotifications: boolean('push_notifications').notNull().default(false),
  securityAlerts: boolean('security_alerts').notNull().default(true),
  healthReports: boolean('health_reports').notNull().default(false),
  /** The health report covers only the servers this team owns (servers.team_owner); null: every server. */
  reportTeam: varchar('report_team', { length: 100 }),
  theme: varchar('theme', { length: 10, enum: themes }).notNull().default('system'),
  autoSave: boolean('auto_save').notNull().default(true),
  compactView: boolean('compact_view').notNull().default(false),
  updatedAt: updatedAt(),
});

/** Single-use two-factor recovery codes (sha256), shown once at enrolment. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.userId)],
);

/** Workspace-wide security settings: one row (id 1). */
export const appSettings = pgTable('app_settings', {
  id: integer('id').primaryKey().default(1),
  /** Everyone must have two-factor sign-in on before doing anything else. */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  /** Ask for the two-factor code after Google/OIDC sign-in too. */
  twoFactorForExternal: boolean('two_factor_for_external').notNull().default(true),
  /**
   * Review rules per item type (the list filter's names: knowledge-base, work-instruction, how-to-guide,
   * build-document, document): { requiredApprovals, reviewIntervalDays }; a missing type needs no approval.
   */
  reviewPolicy: jsonb('review_policy').notNull().default({}),
  updatedAt: updatedAt(),
});
