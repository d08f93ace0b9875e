import { z } from 'zod';
import { requiredText } from '../http/text-fields';

/** Spec §5 settings choices. */
export const settingsDepartments = [
  'IT Operations',
  'IT Infrastructure',
  'Development',
  'IT Security',
  'Management',
] as const;
export const timezones = [
  'Australia/Sydney',
  'Australia/Melbourne',
  'Australia/Brisbane',
  'Australia/Perth',
  'UTC',
] as const;
export const themeChoices = ['light', 'dark', 'system'] as const;

/** An HTML checkbox: present ("on") is true, absent is false. */
const checkbox = z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean());

export const profileInput = z.object({
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  department: z.enum(settingsDepartments, { error: 'Choose a department from the list.' }),
  timezone: z.enum(timezones, { error: 'Choose a timezone from the list.' }),
});
export type ProfileInput = z.infer<typeof profileInput>;

/** Push notifications is not in the form: it changes only with a real browser subscription (/api/notifications). */
export const notificationsInput = z.object({
  emailNotifications: checkbox,
  securityAlerts: checkbox,
  healthReports: checkbox,
  /** "Health report covers": a team that owns servers (checked against them when saved); empty: every server. */
  reportTeam: z
    .string()
    .trim()
    .max(100, 'Choose a team from the list.')
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
});

export const appearanceInput = z.object({
  theme: z.enum(themeChoices, { error: 'Theme must be light, dark or system.' }),
  autoSave: checkbox,
  compactView: checkbox,
});

export type PreferencesInput = Partial<z.infer<typeof notificationsInput> & z.infer<typeof appearanceInput>>;

export const passwordInput = z
  .object({
    currentPassword: z.string().optional().default(''),
    newPassword: z
      .string({ error: 'Password must be at least 8 characters' })
      .min(8, 'Password must be at least 8 characters')
      .max(200, 'Password must be at most 200 characters.'),
    confirmPassword: z.string().optional().default(''),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });

export const deleteAccountInput = z.object({ confirmEmail: z.string().trim().optional().default('') });

export interface Settings {
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  createdAt: string;
  hasPassword: boolean;
  passwordUpdatedAt: string;
  /** The avatar's path (ours, /objects/…) or an identity provider's picture; null shows initials. */
  profileImageUrl: string | null;
  otherSessions: number;
  department: string;
  timezone: string;
  emailNotifications: boolean;
  pushNotifications: boolean;
  securityAlerts: boolean;
  healthReports: boolean;
  /** The team whose servers the health report covers; null: every server. */
  reportTeam: string | null;
  theme: (typeof themeChoices)[number];
  autoSave: boolean;
  compactView: boolean;
}
