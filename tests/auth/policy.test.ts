import { describe, expect, it } from 'vitest';
import { ACTIONS, authorize, can, DENIED_MESSAGE, type Action, type Actor } from '../../src/auth/policy';
import type { AppError } from '../../src/http/errors';

const admin = { id: 'a1', role: 'admin' };
const user = { id: 'u1', role: 'editor' };

/** (who, action, resource) → allowed: today's roles, admin and user. */
const table: [string, Actor, Action, { ownerId?: string | null } | undefined, boolean][] = [
  ['signed out', null, 'app.use', undefined, false],
  ['signed out', null, 'image.visibility', { ownerId: 'u1' }, false],
  ['user', user, 'app.use', undefined, true],
  ['user', user, 'user.approve', undefined, false],
  ['user', user, 'jobs.read', undefined, false],
  ['user', user, 'jobs.run', undefined, false],
  ['user', user, 'tokens.manage', undefined, false],
  ['user', user, 'knowledge.restore', undefined, false],
  ['user', user, 'image.visibility', { ownerId: 'u1' }, true],
  ['user', user, 'image.visibility', { ownerId: 'someone-else' }, false],
  ['user', user, 'image.visibility', { ownerId: null }, false],
  ['user', user, 'image.visibility', undefined, false],
  ['admin', admin, 'image.visibility', { ownerId: 'someone-else' }, true],
  ...ACTIONS.map((a): [string, Actor, Action, undefined, boolean] => ['admin', admin, a, undefined, true]),
  // Any other role string is a plain user today (the column holds only admin and user).
  ['unknown role', { id: 'x1', role: 'member' }, 'app.use', undefined, true],
  ['unknown role', { id: 'x1', role: 'member' }, 'user.approve', undefined, false],
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
