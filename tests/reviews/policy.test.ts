import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { auditLog } from '../../src/db/schema';
import { defaultReviewInterval, getReviewPolicy, requiredApprovals, setReviewPolicy } from '../../src/reviews/policy';
import { reviewTypeOf } from '../../src/knowledge/shared/review-types';
import { createTestDatabase } from '../helpers/db';
import { createSignedInUser } from '../helpers/users';

describe('review policy (issue 22)', () => {
  let db: Db;
  let close: () => Promise<void>;
  let adminId: string;
  beforeAll(async () => {
    const database = await createTestDatabase();
    db = database.db;
    close = database.close;
    adminId = (await createSignedInUser(db, { role: 'admin' })).id;
  });
  afterAll(async () => close());

  it('is empty until set: no approvals, no default interval', async () => {
    expect(await getReviewPolicy(db)).toEqual({ approvals: {}, intervals: {} });
    expect(await requiredApprovals(db, 'work-instruction')).toBe(0);
    expect(await defaultReviewInterval(db, 'document')).toBeNull();
  });

  it('keeps the two halves apart, drops unknown types and zeros, and records who changed it', async () => {
    await setReviewPolicy(db, adminId, 'approvals', { 'work-instruction': 1, 'build-document': 2 });
    const saved = await setReviewPolicy(db, adminId, 'intervals', {
      'knowledge-base': 365,
      document: 0,
      nonsense: 5,
    } as never);
    expect(saved).toEqual({
      approvals: { 'work-instruction': 1, 'build-document': 2 },
      intervals: { 'knowledge-base': 365 },
    });
    expect(await requiredApprovals(db, 'build-document')).toBe(2);
    expect(await defaultReviewInterval(db, 'knowledge-base')).toBe(365);
    const events = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settings.review_policy_changed'), eq(auditLog.actorId, adminId)));
    expect(events).toHaveLength(2);
  });

  it('names an item by its space and template type', () => {
    expect(reviewTypeOf('documents', 'work_instruction')).toBe('document');
    expect(reviewTypeOf('knowledge', 'work_instruction')).toBe('work-instruction');
    expect(reviewTypeOf('knowledge', null)).toBe('knowledge-base');
    expect(reviewTypeOf('knowledge', 'maintenance')).toBe('knowledge-base');
  });
});
