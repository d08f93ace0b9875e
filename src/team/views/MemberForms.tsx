import type { ReactNode } from 'react';
import type { FieldErrors, FormValues } from '../../http/form';
import { Field } from '../../ui/components';
import { ConfirmDialog, Dialog, DialogActions, DialogContent, type DialogFormProps } from '../../ui/Dialog';
import { departmentChoices, memberStatuses, roleChoices, type MemberStatus, type TeamMember } from '../schemas';

export interface FormState {
  values: FormValues;
  errors: FieldErrors;
}
const empty: FormState = { values: {}, errors: {} };

/** Spec §8: the Error toast's text when a change fails and the server names no reason (data-error-toast). */
export const FAILED = {
  add: 'Failed to add team member.',
  edit: 'Failed to update team member.',
  delete: 'Failed to delete team member.',
  invite: 'Failed to send invitation. Please try again.',
} as const;

interface FormProps {
  id: string;
  title: string;
  action: string;
  submit: string;
  /** The toast text if the request fails (spec §8). */
  failed: string;
  children: ReactNode;
}

/**
 * A member dialog's form: posts with htmx (re-rendering itself on errors) or plainly without JS. noValidate: the
 * server names missing fields (spec §5 "Missing Information" toast), not the browser's own bubble.
 */
function formOf(id: string, failed: string, action?: string): DialogFormProps {
  const posts = action ? { method: 'post', action, 'hx-post': action } : {};
  return {
    id: `${id}-form`,
    noValidate: true,
    ...posts,
    'hx-target': 'this',
    'hx-swap': 'outerHTML',
    'hx-disabled-elt': 'find button[type=submit]',
    'data-error-toast': failed,
  };
}

function FormDialog({ id, title, action, submit, failed, children, open }: FormProps & { open?: boolean }) {
  const footer = <DialogActions submit={submit} />;
  return (
    <Dialog
      id={id}
      title={title}
      openOnLoad={open}
      form={formOf(id, failed, action)}
      bodyClassName="stack"
      footer={footer}
    >
      {children}
    </Dialog>
  );
}

/** The form inside a dialog: what htmx swaps when the server answers with errors. */
export function FormBody({ id, title, action, submit, failed, children }: FormProps) {
  const footer = <DialogActions submit={submit} />;
  return (
    <DialogContent id={id} title={title} form={formOf(id, failed, action)} bodyClassName="stack" footer={footer}>
      {children}
    </DialogContent>
  );
}

function TextField({
  id,
  name,
  label,
  state,
  type = 'text',
  required,
  list,
}: {
  id: string;
  name: string;
  label: string;
  state: FormState;
  type?: string;
  required?: boolean;
  list?: string;
}) {
  const fid = `${id}-${name}`;
  const error = state.errors[name];
  return (
    <Field label={required ? `${label} *` : label} htmlFor={fid} error={error}>
      <input
        id={fid}
        className="input"
        name={name}
        type={type}
        required={required}
        list={list}
        defaultValue={state.values[name] ?? ''}
        aria-invalid={error ? true : undefined}
        autoComplete="off"
      />
    </Field>
  );
}

/** The role and department choices of spec §5; the inputs accept free text too. */
export function ChoiceLists() {
  return (
    <>
      <datalist id="team-role-choices">
        {roleChoices.map((r) => (
          <option key={r} value={r} />
        ))}
      </datalist>
      <datalist id="team-department-choices">
        {departmentChoices.map((d) => (
          <option key={d} value={d} />
        ))}
      </datalist>
    </>
  );
}

export const statusLabels: Record<MemberStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  invited: 'Invited',
};

/** The statuses a person picks from: Active and Inactive, and Invited while the member still is. */
const statusChoices = (current: string | undefined) =>
  memberStatuses.filter((s) => s !== 'invited' || current === 'invited');

/** Fields of the add and edit forms; edit adds Status. */
export function MemberFields({ id, state, withStatus }: { id: string; state: FormState; withStatus?: boolean }) {
  return (
    <>
      <TextField id={id} name="name" label="Name" state={state} required />
      <TextField id={id} name="email" label="Email" type="email" state={state} required />
      <TextField id={id} name="role" label="Role" state={state} required list="team-role-choices" />
      <TextField id={id} name="department" label="Department" state={state} list="team-department-choices" />
      {withStatus && (
        <Field label="Status" htmlFor={`${id}-status`} error={state.errors.status}>
          <select id={`${id}-status`} name="status" className="select" defaultValue={state.values.status ?? 'active'}>
            {statusChoices(state.values.status).map((s) => (
              <option key={s} value={s}>
                {statusLabels[s]}
              </option>
            ))}
          </select>
        </Field>
      )}
    </>
  );
}

export function InviteFields({ state }: { state: FormState }) {
  return (
    <>
      <TextField id="invite-member" name="email" label="Email" type="email" state={state} required />
      <div className="form-grid grid--2">
        <TextField id="invite-member" name="firstName" label="First name" state={state} required />
        <TextField id="invite-member" name="lastName" label="Last name" state={state} required />
      </div>
      <TextField id="invite-member" name="role" label="Role" state={state} required list="team-role-choices" />
      <TextField id="invite-member" name="department" label="Department" state={state} list="team-department-choices" />
    </>
  );
}

export const memberValues = (m: TeamMember): Record<string, string> => ({
  name: m.name,
  email: m.email,
  role: m.role,
  department: m.department ?? '',
  status: m.status,
});

export const deleteQuestion = (name: string) =>
  `Are you sure you want to delete ${name}? This action cannot be undone.`;

/** Add Team Member and Invite Member dialogs. */
export function TopDialogs({
  add = empty,
  invite = empty,
  open,
}: {
  add?: FormState;
  invite?: FormState;
  open?: 'add' | 'invite';
}) {
  return (
    <>
      <FormDialog
        id="add-member"
        title="Add Team Member"
        action="/team/members"
        submit="Add Member"
        failed={FAILED.add}
        open={open === 'add'}
      >
        <MemberFields id="add-member" state={add} />
      </FormDialog>
      <FormDialog
        id="invite-member"
        title="Invite Member"
        action="/team/invite"
        submit="Send Invitation"
        failed={FAILED.invite}
        open={open === 'invite'}
      >
        <InviteFields state={invite} />
      </FormDialog>
    </>
  );
}

/** Edit (with Status) and delete-confirmation dialogs of one member. */
export function MemberDialogs({ member, edit, open }: { member: TeamMember; edit?: FormState; open?: boolean }) {
  return (
    <>
      <FormDialog
        id={`edit-${member.id}`}
        title="Edit Team Member"
        action={`/team/members/${member.id}`}
        submit="Save Changes"
        failed={FAILED.edit}
        open={open}
      >
        <MemberFields
          id={`edit-${member.id}`}
          state={edit ?? { values: memberValues(member), errors: {} }}
          withStatus
        />
      </FormDialog>
      <ConfirmDialog
        id={`delete-${member.id}`}
        title="Delete Team Member"
        question={deleteQuestion(member.name)}
        action={`/team/members/${member.id}/delete`}
        form={formOf(`delete-${member.id}`, FAILED.delete)}
      />
    </>
  );
}
