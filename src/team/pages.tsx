import { Hono, type Context } from 'hono';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { ZodType } from 'zod';
import type { AppEnv } from '../app-env';
import { AppError, notFound } from '../http/errors';
import { requirePageUser } from '../http/session';
import { triggerToast } from '../http/toast';
import { deliverMailSoon } from '../mail/kick';
import { inviterOf } from './api';
import { inviteMember } from './invite';
import { inviteInput, memberInput } from './schemas';
import { createMember, deleteMember, filterMembers, getMember, listMembers, updateMember } from './service';
import { FAILED, FormBody, InviteFields, MemberFields, type FormState } from './views/MemberForms';
import { MemberList, TeamPage, type TeamPageProps } from './views/TeamPage';

type C = Context<AppEnv>;
const isHtmx = (c: C) => !!c.req.header('HX-Request');

/** Form fields as strings (files and repeats ignored). */
async function formValues(c: C): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** zod → {data} or the per-field messages of the form. */
function check<T>(
  schema: ZodType<T>,
  values: Record<string, string>,
): { data: T } | { errors: Record<string, string> } {
  const r = schema.safeParse(values);
  if (r.success) return { data: r.data };
  const errors: Record<string, string> = {};
  for (const i of r.error.issues) errors[String(i.path[0] ?? 'form')] ??= i.message;
  return { errors };
}

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
  return { members, shown: filterMembers(members, q), q, timezone: c.var.user!.timezone, ...extra };
}

const renderPage = async (c: C, extra: Partial<TeamPageProps> = {}, status: 200 | 422 = 200) => {
  c.status(status);
  return c.render(<TeamPage {...(await pageProps(c, extra))} />, {
    title: 'Team',
    subtitle: 'Manage your team members and their roles',
  });
};

/** After a change: htmx gets the whole team region (closing the dialog, keeping the search) and a toast; plain forms a redirect. */
async function changed(c: C, title: string, text?: string) {
  if (!isHtmx(c)) return c.redirect('/team', 303);
  triggerToast(c, title, text);
  c.header('HX-Retarget', '#team-page');
  c.header('HX-Reswap', 'outerHTML');
  return c.html(renderToString(<TeamPage {...(await pageProps(c, {}, currentSearch(c)))} />));
}

/** A form with errors: htmx re-renders the form in its dialog (with a toast), plain forms get the page at 422. */
async function invalid(
  c: C,
  form: { id: string; title: string; action: string; submit: string; failed: string; fields: ReactElement },
  toast: [string, string],
  page: Partial<TeamPageProps>,
) {
  if (!isHtmx(c)) return renderPage(c, page, 422);
  triggerToast(c, toast[0], toast[1], 'error');
  return c.html(
    renderToString(
      <FormBody id={form.id} title={form.title} action={form.action} submit={form.submit} failed={form.failed}>
        {form.fields}
      </FormBody>,
    ),
  );
}

const MISSING: [string, string] = ['Missing Information', 'Please fill in all required fields.'];
const requiredMissing = (v: Record<string, string>, keys: string[]) => keys.some((k) => !v[k]?.trim());

/** /team: the page, its list fragment and the dialog form posts. */
export function teamPages() {
  const app = new Hono<AppEnv>();
  app.use('/team', requirePageUser());
  app.use('/team/*', requirePageUser());

  app.get('/team', async (c) => {
    if (isHtmx(c) && c.req.header('HX-Target') === 'team-list') {
      const p = await pageProps(c);
      return c.html(renderToString(<MemberList shown={p.shown} q={p.q} timezone={p.timezone} />));
    }
    return renderPage(c);
  });

  app.post('/team/members', async (c) => {
    const values = await formValues(c);
    let r = check(memberInput, values);
    if ('data' in r) {
      try {
        await createMember(c.var.deps.db, r.data, c.var.user!.id);
        return changed(c, 'Team Member Added', `${r.data.name} was added to the team.`);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 409) throw err;
        r = { errors: { email: err.message } };
      }
    }
    const state: FormState = { values, errors: r.errors };
    const toast: [string, string] = requiredMissing(values, ['name', 'email', 'role'])
      ? MISSING
      : ['Error', Object.values(r.errors)[0] ?? FAILED.add];
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

  app.post('/team/members/:id', async (c) => {
    const id = c.req.param('id');
    const member = await getMember(c.var.deps.db, id);
    if (!member) throw notFound('Team member not found.');
    const values = await formValues(c);
    let r = check(memberInput, values);
    if ('data' in r) {
      try {
        await updateMember(c.var.deps.db, id, r.data, c.var.user!.id);
        return changed(c, 'Team Member Updated', `${r.data.name} was updated.`);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 409) throw err;
        r = { errors: { email: err.message } };
      }
    }
    const state: FormState = { values, errors: r.errors };
    const toast: [string, string] = requiredMissing(values, ['name', 'email', 'role'])
      ? MISSING
      : ['Error', Object.values(r.errors)[0] ?? FAILED.edit];
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

  app.post('/team/members/:id/delete', async (c) => {
    const removed = await deleteMember(c.var.deps.db, c.req.param('id'), c.var.user!.id);
    return changed(c, 'Team Member Deleted', `${removed.name} was removed from the team.`);
  });

  app.post('/team/invite', async (c) => {
    const values = await formValues(c);
    let r = check(inviteInput, values);
    if ('data' in r) {
      try {
        const { invitedEmail } = await inviteMember(c.var.deps.db, c.var.deps.config.appUrl, r.data, inviterOf(c));
        deliverMailSoon(c.var.deps);
        return changed(c, 'Invitation Sent', `Invitation sent to ${invitedEmail} successfully.`);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 429) throw err;
        for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
        r = { errors: { email: err.message } };
      }
    }
    const state: FormState = { values, errors: r.errors };
    const toast: [string, string] = requiredMissing(values, ['email', 'firstName', 'lastName', 'role'])
      ? MISSING
      : ['Error', Object.values(r.errors)[0] ?? FAILED.invite];
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
