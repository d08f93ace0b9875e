import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { requireUser } from '../auth/policy';
import { validate } from '../http/validate';
import { itemFor } from './items';
import { changeVisibility, findActiveUsers, transferOwner } from './ownership';
import { createShareLink, listShares, revokeShare, shareWithUser } from './shares';
import { SPACES, type Space } from './shared';

const uuid = (what: string) => z.uuid({ error: `${what} must be a user id.` });

const visibilityInput = z.object({
  visibility: z.enum(['everyone', 'restricted'], { error: 'visibility must be "everyone" or "restricted".' }),
});
const ownerInput = z.object({ ownerId: uuid('ownerId') });
const shareInput = z.union(
  [
    z.object({
      userId: uuid('userId'),
      permission: z.enum(['read', 'write'], { error: 'permission must be "read" or "write".' }).default('read'),
    }),
    z.object({
      link: z.literal(true),
      expiresAt: z.coerce.date({ error: 'expiresAt must be a date.' }).nullable().optional(),
    }),
  ],
  { error: 'Send { userId, permission } or { link: true, expiresAt? }.' },
);
const usersQuery = z.object({ q: z.string().max(100, 'q must be at most 100 characters.').default('') });

/** The item named by :id that the user may share (404 when they may not read it, 403 when not its owner or an admin). */
async function sharedItem(c: Context<AppEnv>, space: Space) {
  const item = await itemFor(c.var.deps.db, c.var.user, space, c.req.param('id') ?? '', 'item.share');
  return { ...item, space };
}

/** {base}/{id}/visibility, /owner and /shares of one space (owners and admins). */
function spaceShareApi(space: Space) {
  const app = new Hono<AppEnv>();
  app.use('*', requireUser());
  app.put('/:id/visibility', validate('json', visibilityInput), async (c) => {
    const item = await sharedItem(c, space);
    const { visibility } = c.req.valid('json');
    await changeVisibility(c.var.deps.db, item, visibility, c.var.user!.id);
    return c.json({ id: item.id, visibility });
  });
  app.put('/:id/owner', validate('json', ownerInput), async (c) => {
    const item = await sharedItem(c, space);
    const { ownerId } = c.req.valid('json');
    await transferOwner(c.var.deps.db, item, ownerId, c.var.user!.id);
    return c.json({ id: item.id, ownerId });
  });
  app.get('/:id/shares', async (c) => {
    const item = await sharedItem(c, space);
    return c.json(await listShares(c.var.deps.db, item.id));
  });
  app.post('/:id/shares', validate('json', shareInput), async (c) => {
    const item = await sharedItem(c, space);
    const input = c.req.valid('json');
    const { db, config } = c.var.deps;
    const share =
      'link' in input
        ? await createShareLink(db, item, c.var.user!.id, input.expiresAt ?? null, config.appUrl)
        : await shareWithUser(db, item, c.var.user!.id, input);
    return c.json(share, 201);
  });
  app.delete('/:id/shares/:shareId', async (c) => {
    const item = await sharedItem(c, space);
    const shareId = z.uuid().safeParse(c.req.param('shareId'));
    if (!shareId.success) return c.json({ message: 'Share not found.' }, 404);
    await revokeShare(c.var.deps.db, item, shareId.data, c.var.user!.id);
    return c.json({ message: 'Share revoked.' });
  });
  return app;
}

/** The sharing routes of both spaces, and GET /api/users?q= (the Share dialog's person picker). */
export function shareApi() {
  const app = new Hono<AppEnv>();
  app.get('/api/users', requireUser(), validate('query', usersQuery), async (c) =>
    c.json(await findActiveUsers(c.var.deps.db, c.req.valid('query').q)),
  );
  app.route(SPACES.knowledge.api, spaceShareApi('knowledge'));
  app.route(SPACES.documents.api, spaceShareApi('documents'));
  return app;
}
