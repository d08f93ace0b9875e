import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { AppError } from '../http/errors';
import { allowPage } from '../auth/policy';
import { requirePageUser } from '../auth/policy';
import { fragment, isHtmx } from '../http/htmx';
import { triggerToast } from '../http/toast';
import { approveInput, userIdParam } from './schemas';
import { formValues } from '../http/form';
import { decideUser, listPendingUsers, type Decision } from './service';
import { accessDenied } from './denied';
import { PendingUsersRegion } from './views/ApprovalPage';

type C = Context<AppEnv>;
const TITLE = 'User Approvals';
const SUBTITLE = 'Review and approve new account requests';

const doneBanners: Record<string, string> = { approved: 'User Approved', rejected: 'User Rejected' };
const pastTense = { approve: 'approved', reject: 'rejected' } as const;

const accessDeniedHere = accessDenied({ title: TITLE, subtitle: SUBTITLE });

async function decide(c: C, decision: Decision) {
  const isHx = isHtmx(c);
  const failTitle = decision === 'approve' ? 'Approval Failed' : 'Rejection Failed';
  const parsed = userIdParam.safeParse({ id: c.req.param('id') });
  try {
    if (!parsed.success) throw new AppError(400, 'Invalid user id', 'validation_error');
    const role = approveInput.safeParse({ role: (await formValues(c)).role || undefined });
    if (!role.success) throw new AppError(400, 'Choose a role: Admin, Editor, Viewer or Auditor.', 'validation_error');
    const { db, config } = c.var.deps;
    const { name } = await decideUser(db, config.appUrl, c.var.user!, parsed.data.id, decision, role.data.role);
    if (!isHx) return c.redirect(`/admin/approval?done=${pastTense[decision]}`, 303);
    triggerToast(
      c,
      decision === 'approve' ? 'User Approved' : 'User Rejected',
      `${name} has been ${pastTense[decision]}.`,
    );
    return fragment(
      c,
      <PendingUsersRegion users={await listPendingUsers(c.var.deps.db)} timeZone={c.var.user!.timezone} />,
    );
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    c.status(err.status);
    if (isHx) {
      triggerToast(c, failTitle, err.message, 'error');
      return c.body(null);
    }
    const banner = { variant: 'error' as const, text: `${failTitle}: ${err.message}` };
    return c.render(
      <PendingUsersRegion
        users={await listPendingUsers(c.var.deps.db)}
        timeZone={c.var.user!.timezone}
        banner={banner}
      />,
      { title: TITLE, subtitle: SUBTITLE },
    );
  }
}

/** /admin/approval: the pending list for admins, the Access Denied card for everyone else. */
export function adminPages() {
  const app = new Hono<AppEnv>();
  app.use('/admin/*', requirePageUser());
  app.use('/admin', requirePageUser());
  app.use('/admin/approval', allowPage('user.approve', accessDeniedHere));
  app.use('/admin/approval/*', allowPage('user.approve', accessDeniedHere));

  app.get('/admin/approval', async (c) => {
    const done = doneBanners[c.req.query('done') ?? ''];
    const users = await listPendingUsers(c.var.deps.db);
    return c.render(
      <>
        {done && <span hidden data-replace-url="/admin/approval" />}
        <PendingUsersRegion
          users={users}
          timeZone={c.var.user!.timezone}
          banner={done ? { variant: 'success', text: done } : null}
        />
      </>,
      { title: TITLE, subtitle: SUBTITLE },
    );
  });
  app.post('/admin/approval/:id/approve', (c) => decide(c, 'approve'));
  app.post('/admin/approval/:id/reject', (c) => decide(c, 'reject'));
  return app;
}
