import type { Db } from '../db/client';
import { reviewTypes } from '../knowledge/shared/review-types';
import { setReviewPolicy } from './policy';
import { approvalsInput, intervalsInput, withoutNulls } from './schemas';

/** The admin page's form (`approvals.{type}`, `intervals.{type}`; empty = none) checked and saved as the review rules. */

const numberOrNull = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : null);

function half(body: Record<string, unknown>, prefix: 'approvals' | 'intervals') {
  return Object.fromEntries(reviewTypes.map((t) => [t, numberOrNull(body[`${prefix}.${t}`])]));
}

export async function saveRulesForm(
  db: Db,
  actorId: string,
  body: Record<string, unknown>,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const approvals = approvalsInput.safeParse(
    Object.fromEntries(Object.entries(half(body, 'approvals')).map(([k, v]) => [k, v ?? 0])),
  );
  const intervals = intervalsInput.safeParse(half(body, 'intervals'));
  const problem = approvals.error?.issues[0] ?? intervals.error?.issues[0];
  if (problem || !approvals.success || !intervals.success)
    return { ok: false, error: problem?.message ?? 'Check the form.' };
  await setReviewPolicy(db, actorId, 'approvals', withoutNulls(approvals.data));
  await setReviewPolicy(db, actorId, 'intervals', withoutNulls(intervals.data));
  return { ok: true };
}
