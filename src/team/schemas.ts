import { z } from 'zod';
import { requiredText } from '../http/text-fields';

/** invited: an invitation's entry, until the invitee registers with that address (src/team/service.ts). */
export const memberStatuses = ['active', 'inactive', 'invited'] as const;
export type MemberStatus = (typeof memberStatuses)[number];

/** Spec §5 role choices (a free-text role is allowed too). */
export const roleChoices = [
  'System Administrator',
  'Senior Systems Administrator',
  'Senior Systems Engineer',
  'Infrastructure Engineer',
  'DevOps Engineer',
  'Security Analyst',
  'Network Administrator',
  'Database Administrator',
  'Manager',
  'VIP',
] as const;

/** Spec §5 department choices (a free-text department is allowed too). */
export const departmentChoices = [
  'IT Operations',
  'IT Security',
  'Network Operations',
  'Database Administration',
  'Midrange Services Team',
  'Server Services',
  'End User Team',
] as const;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters.`)
    .nullable()
    .optional()
    .transform((v) => v || null);

const email = z
  .string({ error: 'Valid email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Valid email is required' }).max(255, 'Valid email is required'));

/** A team member as created or edited (spec §3, §5 messages). */
export const memberInput = z.object({
  name: requiredText('Name', 200),
  email,
  role: requiredText('Role', 100),
  department: optionalText(100, 'Department'),
  status: z.enum(memberStatuses, { error: 'Status must be active, inactive or invited.' }).optional().default('active'),
});
export type MemberInput = z.infer<typeof memberInput>;

/** Invite payload: email, firstName, lastName, role, department. */
export const inviteInput = z.object({
  email,
  firstName: requiredText('First name', 100),
  lastName: requiredText('Last name', 100),
  role: requiredText('Role', 100),
  department: optionalText(100, 'Department'),
});
export type InviteInput = z.infer<typeof inviteInput>;

/** A team member as JSON (dates as ISO strings). */
export interface TeamMember {
  id: string;
  name: string;
  email: string;
  role: string;
  department: string | null;
  profileImageUrl: string | null;
  status: MemberStatus;
  lastActive: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Spec: role containing Administrator red, Engineer blue, Analyst green, otherwise grey. */
export function roleColour(role: string): 'red' | 'blue' | 'green' | 'neutral' {
  if (role.includes('Administrator')) return 'red';
  if (role.includes('Engineer')) return 'blue';
  if (role.includes('Analyst')) return 'green';
  return 'neutral';
}
