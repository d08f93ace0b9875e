import { Hono, type Context } from 'hono';
import type { ReactElement } from 'react';
import type { z } from 'zod';
import type { AppEnv } from '../app-env';
import { notFound } from '../http/errors';
import { submitForm } from '../http/form';
import { fragment, isHtmx, isHtmxFor } from '../http/htmx';
import { allowPage, can, requirePageUser } from '../auth/policy';
import type { Toast } from '../http/flash';
import { triggerToast } from '../http/toast';
import { inviterOf } from './api';
import { inviteMember } from './invite';
import { inviteInput, memberInput } from './schemas';
import { createMember, deleteMember, filterMembers, getMember, listMembers, updateMember } from './service';
import { FAILED, FormBody, InviteFields, MemberFields, type FormState } from './views/MemberForms';
import { MemberList, TeamPage, type TeamPageProps } from './views/TeamPage';

type C = Context<AppEnv>;

const searchText = (q: string | null | undefined) => (q ?? '').slice(0, 100);

/** The search of the page an htmx request came from (HX-Current-URL), so a re-render keeps it. */
function currentSearch(c: C): string {
  try {
    return searchText(new URL(c.req.header('HX-Current-URL') ?? '', 'http://x').searchParams.get('q'));
  } catch {
    return '';
  }
}

async function pageProps(
  c: C,
  extra: Partial<TeamPageProps> = {},
  q = searchText(c.req.query('q')),
): Promise<TeamPageProps> {
  const members = await listMembers(c.var.deps.db);
  const canWrite = can(c.var.user, 'content.write');
  return { members, shown: filterMembers(members, q), q, timezone: c.var.user!.timezone, canWrite, ...extra };
}

const renderPage = async (c: C, extra: Partial<TeamPageProps> = {}, status: 200 | 422 = 200, toast?: Toast) => {
  c.status(status);
  return c.render(<TeamPage {...(await pageProps(c, extra))} />, {
    title: 'Team',
    subtitle: 'Manage your team members and their roles',
    toast,
  });
};

/** After a change: htmx gets the whole team region (closing the dialog, keeping the search) and a toast; plain forms a redirect. */
async function changed(c: C, title: string, text?: string) {
  if (!isHtmx(c)) return c.redirect('/team', 303);
  triggerToast(c, title, text);
  c.header('HX-Retarget', '#team-page');
  c.header('HX-Reswap', 'outerHTML');
  return fragment(c, <TeamPage {...(await pageProps(c, {}, currentSearch(c)))} />);
}

/** A form with errors: htmx re-renders the form in its dialog, plain forms get the page at 422; both with a toast. */
async function invalid(
  c: C,
  form: { id: string; title: string; action: string; submit: string; failed: string; fields: ReactElement },
  toast: [string, string],
  page: Partial<TeamPageProps>,
) {
  if (!isHtmx(c)) return renderPage(c, page, 422, { title: toast[0], text: toast[1], variant: 'error' });
  triggerToast(c, toast[0], toast[1], 'error');
  return fragment(
    c,
    <FormBody id={form.id} title={form.title} action={form.action} submit={form.submit} failed={form.failed}>
      {form.fields}
    </FormBody>,
  );
}

const MISSING: [string, string] = ['Missing Information', 'Please fill in all required fields.'];
const requiredMissing = (v: Record<string, string>, keys: string[]) => keys.some((k) => !v[k]?.trim());

/** The toast of a refused form: the spec's "Missing Information" when a required field is empty, else the first error. */
const failureToast = (state: FormState, required: string[], failed: string): [string, string] =>
  requiredMissing(state.values, required) ? MISSING : ['Error', Object.values(state.errors)[0] ?? failed];

/** /team: the page, its list fragment and the dialog form posts. */
export function teamPages() {
  const app = new Hono<AppEnv>();
  app.use('/team', requirePageUser());
  app.use('/team/*', requirePageUser());
  // Every form post here changes the directory: editors and admins (403 for viewers and auditors).
  const write = allowPage('content.write');

  app.get('/team', async (c) => {
    if (isHtmxFor(c, 'team-list')) {
      const p = await pageProps(c);
      return fragment(c, <MemberList shown={p.shown} q={p.q} timezone={p.timezone} canWrite={p.canWrite} />);
    }
    return renderPage(c);
  });

  app.post('/team/members', write, async (c) => {
    const form = await submitForm(c, memberInput, (data) => createMember(c.var.deps.db, data, c.var.user!.id), {
      409: 'email',
    });
    if (form.ok) return changed(c, 'Team Member Added', `${form.data.name} was added to the team.`);
    const state: FormState = { values: form.values, errors: form.errors };
    const toast = failureToast(state, ['name', 'email', 'role'], FAILED.add);
    return invalid(
      c,
      {
        id: 'add-member',
        title: 'Add Team Member',
        action: '/team/members',
        submit: 'Add Member',
        failed: FAILED.add,
        fields: <MemberFields id="add-member" state={state} />,
      },
      toast,
      { add: state, open: 'add' },
    );
  });

  app.post('/team/members/:id', write, async (c) => {
    const id = c.req.param('id');
    const member = await getMember(c.var.deps.db, id);
    if (!member) throw notFound('Team member not found.');
    const form = await submitForm(c, memberInput, (data) => updateMember(c.var.deps.db, id, data, c.var.user!.id), {
      409: 'email',
    });
    if (form.ok) return changed(c, 'Team Member Updated', `${form.data.name} was updated.`);
    const state: FormState = { values: form.values, errors: form.errors };
    const toast = failureToast(state, ['name', 'email', 'role'], FAILED.edit);
    const fields = <MemberFields id={`edit-${id}`} state={state} withStatus />;
    return invalid(
      c,
      {
        id: `edit-${id}`,
        title: 'Edit Team Member',
        action: `/team/members/${id}`,
        submit: 'Save Changes',
        failed: FAILED.edit,
        fields,
      },
      toast,
      { edit: { id, state }, open: 'edit' },
    );
  });

  app.post('/team/members/:id/delete', write, async (c) => {
    const removed = await deleteMember(c.var.deps.db, c.req.param('id'), c.var.user!.id);
    return changed(c, 'Team Member Deleted', `${removed.name} was removed from the team.`);
  });

  app.post('/team/invite', write, async (c) => {
    const invite = (data: z.output<typeof inviteInput>) =>
      inviteMember(c.var.deps.db, c.var.deps.config.appUrl, data, inviterOf(c));
    const form = await submitForm(c, inviteInput, invite, { 429: 'email' });
    if (form.ok) return changed(c, 'Invitation Sent', `Invitation sent to ${form.result.invitedEmail} successfully.`);
    const state: FormState = { values: form.values, errors: form.errors };
    const toast = failureToast(state, ['email', 'firstName', 'lastName', 'role'], FAILED.invite);
    return invalid(
      c,
      {
        id: 'invite-member',
        title: 'Invite Member',
        action: '/team/invite',
        submit: 'Send Invitation',
        failed: FAILED.invite,
        fields: <InviteFields state={state} />,
      },
      toast,
      { invite: state, open: 'invite' },
    );
  });
  return app;
}
