import { describe, expect, it } from 'vitest';
import { ACTIONS, authorize, can, DENIED_MESSAGE, type Action, type Actor } from '../../src/auth/policy';
import type { AppError } from '../../src/http/errors';

const admin = { id: 'a1', role: 'admin' };
const user = { id: 'u1', role: 'editor' };
const people = {
  admin,
  editor: user,
  viewer: { id: 'v1', role: 'viewer' },
  auditor: { id: 'd1', role: 'auditor' },
} as const;
type RoleName = keyof typeof people;

/**
 * The role table of issue 21, written out (not derived from the policy): for each action without a resource, the
 * roles allowed. Every action appears; 'own' and item actions are checked with resources below.
 */
const ROLE_TABLE: Record<Action, RoleName[]> = {
  'app.use': ['admin', 'editor', 'viewer', 'auditor'],
  'content.write': ['admin', 'editor'],
  'audit.read': ['admin', 'auditor'],
  'users.manage': ['admin'],
  'user.approve': ['admin'],
  'jobs.read': ['admin'],
  'jobs.run': ['admin'],
  'tokens.manage': ['admin'],
  'health.detail': ['admin'],
  'knowledge.restore': ['admin'],
  'image.visibility': ['admin'],
  'item.read': ['admin', 'editor', 'viewer', 'auditor'],
  'item.write': ['admin', 'editor'],
  'item.share': ['admin'],
  'item.comment': ['admin', 'editor', 'viewer', 'auditor'],
  'comment.moderate': ['admin'],
  'item.review': ['admin', 'editor'],
  'review.policy': ['admin'],
  'alerts.manage': ['admin'],
  'alert.ack': ['admin', 'editor'],
  'maintenance.manage': ['admin', 'editor'],
  'sla.manage': ['admin'],
  'data.import': ['admin', 'editor'],
  'import.read': ['admin'],
  'data.export': ['admin'],
  'webhooks.manage': ['admin'],
};

describe('alert.ack: editors and admins, and the people an alert rule names (issue 24)', () => {
  it.each(Object.keys(people) as RoleName[])('%s, named by the rule or not', (role) => {
    const me = people[role];
    expect(can(me, 'alert.ack', { recipientIds: [me.id] })).toBe(true);
    expect(can(me, 'alert.ack', { recipientIds: ['someone-else'] })).toBe(role === 'admin' || role === 'editor');
  });
});

describe('the role table: every role × every action', () => {
  it('names every action', () => {
    expect(Object.keys(ROLE_TABLE).sort()).toEqual([...ACTIONS].sort());
  });
  const cells = ACTIONS.flatMap((action) =>
    (Object.keys(people) as RoleName[]).map((role): [RoleName, Action, boolean] => [
      role,
      action,
      ROLE_TABLE[action].includes(role),
    ]),
  );
  it.each(cells)('%s × %s → %s', (role, action, allowed) => {
    expect(can(people[role], action)).toBe(allowed);
  });
  it.each(ACTIONS)('signed out × %s → false', (action) => {
    expect(can(null, action)).toBe(false);
    expect(can(undefined, action, { ownerId: 'u1' })).toBe(false);
  });
});

type ItemCase = { visibility: 'everyone' | 'restricted'; owner: boolean; share: 'read' | 'write' | null };
const itemCases: ItemCase[] = (['everyone', 'restricted'] as const).flatMap((visibility) =>
  [true, false].flatMap((owner) => (['read', 'write', null] as const).map((share) => ({ visibility, owner, share }))),
);

type ItemAction = 'item.read' | 'item.write' | 'item.share' | 'item.comment' | 'item.review';

/** The item rules of issues 21 and 22, written out: who may read, write, share, comment on and review one item. */
function expectedItem(role: RoleName, action: ItemAction, c: ItemCase): boolean {
  if (role === 'admin') return true;
  const writer = role === 'editor';
  const reads = c.visibility === 'everyone' || c.owner || c.share !== null;
  if (action === 'item.share') return writer && c.owner;
  if (action === 'item.read' || action === 'item.comment') return reads;
  if (action === 'item.review') return reads && writer;
  if (c.visibility === 'everyone') return writer;
  return (c.owner && writer) || c.share === 'write';
}

describe('item rules: every role × item action × visibility × owner × share', () => {
  const cells = (Object.keys(people) as RoleName[]).flatMap((role) =>
    (['item.read', 'item.write', 'item.share', 'item.comment', 'item.review'] as const).flatMap((action) =>
      itemCases.map((c): [RoleName, typeof action, ItemCase, boolean] => [
        role,
        action,
        c,
        expectedItem(role, action, c),
      ]),
    ),
  );
  it.each(cells)('%s × %s on %o → %s', (role, action, c, allowed) => {
    const who = people[role];
    const resource = { ownerId: c.owner ? who.id : 'someone-else', visibility: c.visibility, share: c.share };
    expect(can(who, action, resource)).toBe(allowed);
  });

  it('a restricted item without an owner is read only by admins (and the users it is shared with)', () => {
    expect(can(people.editor, 'item.read', { ownerId: null, visibility: 'restricted' })).toBe(false);
    expect(can(people.viewer, 'item.read', { ownerId: null, visibility: 'restricted', share: 'read' })).toBe(true);
    expect(can(admin, 'item.read', { ownerId: null, visibility: 'restricted' })).toBe(true);
  });

  it('a write share lets a viewer edit that item, never write content elsewhere', () => {
    const viewer = people.viewer;
    expect(can(viewer, 'item.write', { ownerId: 'x', visibility: 'restricted', share: 'write' })).toBe(true);
    expect(can(viewer, 'content.write')).toBe(false);
    expect(can(viewer, 'item.share', { ownerId: 'x', visibility: 'restricted', share: 'write' })).toBe(false);
  });
});

/** (who, action, resource) → allowed: owner-scoped grants and unknown roles. */
const table: [string, Actor, Action, { ownerId?: string | null } | undefined, boolean][] = [
  ['signed out', null, 'app.use', undefined, false],
  ['signed out', null, 'image.visibility', { ownerId: 'u1' }, false],
  ['user', user, 'image.visibility', { ownerId: 'u1' }, true],
  ['user', user, 'image.visibility', { ownerId: 'someone-else' }, false],
  ['user', user, 'image.visibility', { ownerId: null }, false],
  ['user', user, 'image.visibility', undefined, false],
  ['viewer', people.viewer, 'image.visibility', { ownerId: 'v1' }, false],
  ['auditor', people.auditor, 'image.visibility', { ownerId: 'd1' }, false],
  ['admin', admin, 'image.visibility', { ownerId: 'someone-else' }, true],
  ...ACTIONS.map((a): [string, Actor, Action, undefined, boolean] => ['admin', admin, a, undefined, true]),
  // A role written outside the app gets the least: a viewer's grants.
  ['unknown role', { id: 'x1', role: 'member' }, 'app.use', undefined, true],
  ['unknown role', { id: 'x1', role: 'member' }, 'user.approve', undefined, false],
  ['unknown role', { id: 'x1', role: 'member' }, 'content.write', undefined, false],
];

describe('can(user, action, resource)', () => {
  it.each(table)('%s → %s on %o', (_who, actor, action, resource, allowed) => {
    expect(can(actor, action, resource)).toBe(allowed);
  });
});

describe('authorize()', () => {
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('authorize() did not refuse');
  };

  it('lets an allowed user through', () => {
    expect(() => authorize(admin, 'jobs.run')).not.toThrow();
    expect(() => authorize(user, 'image.visibility', { ownerId: 'u1' })).not.toThrow();
  });

  it('answers 401 signed out, 403 with the one message for a role that may not, 404 when told to hide', () => {
    expect(refusal(() => authorize(null, 'app.use'))).toMatchObject({ status: 401 });
    expect(refusal(() => authorize(user, 'jobs.run'))).toMatchObject({ status: 403, message: DENIED_MESSAGE });
    expect(
      refusal(() => authorize(user, 'knowledge.restore', undefined, { notFoundMessage: 'Item not found.' })),
    ).toMatchObject({
      status: 404,
      message: 'Item not found.',
    });
  });

  it('uses the spec text for every refusal', () => {
    expect(DENIED_MESSAGE).toBe('You do not have permission to access this page.');
  });
});
