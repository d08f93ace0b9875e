import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env';
import { allow, requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { inviteMember } from './invite';
import { inviteInput, memberInput } from './schemas';
import { createMember, deleteMember, listMembers, updateMember } from './service';

/** "First Last", else the e-mail: how the inviter is named in the invitation. */
export const inviterOf = (c: Context<AppEnv>) => {
  const u = c.var.user!;
  return { id: u.id, name: [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email };
};

/** Spec §7 team calls: GET|POST /api/team-members, PUT|DELETE /api/team-members/{id}, POST /api/team/invite. */
export function teamApi() {
  const app = new Hono<AppEnv>();
  app.use('/api/team-members/*', requireUser());
  app.use('/api/team-members', requireUser());
  app.use('/api/team/*', requireUser());
  app.get('/api/team-members', async (c) => c.json(await listMembers(c.var.deps.db)));
  // Adding, editing, deleting and inviting members: editors and admins (403 for viewers and auditors).
  const write = allow('content.write');
  app.post('/api/team-members', write, validate('json', memberInput), async (c) =>
    c.json(await createMember(c.var.deps.db, c.req.valid('json'), c.var.user!.id), 201),
  );
  app.put('/api/team-members/:id', write, validate('json', memberInput), async (c) =>
    c.json(await updateMember(c.var.deps.db, c.req.param('id'), c.req.valid('json'), c.var.user!.id)),
  );
  app.delete('/api/team-members/:id', write, async (c) => {
    await deleteMember(c.var.deps.db, c.req.param('id'), c.var.user!.id);
    return c.json({ message: 'Team member deleted.' });
  });
  app.post('/api/team/invite', write, validate('json', inviteInput), async (c) => {
    const result = await inviteMember(c.var.deps.db, c.var.deps.config.appUrl, c.req.valid('json'), inviterOf(c));
    return c.json(result);
  });
  return app;
}
