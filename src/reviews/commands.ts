import { and, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../audit/service';
import type { Actor } from '../auth/policy';
import { displayNameById, displayNameOf } from '../auth/service';
import type { Db } from '../db/client';
import { documentVersions, reviewRequests, users } from '../db/schema';
import type { ReviewDecision } from '../db/schema/values';
import { badRequest, conflict, forbidden } from '../http/errors';
import { enforce } from '../http/rate-limit';
import type { Item, Space } from '../knowledge/schemas';
import {
  getItem,
  itemFor,
  lockItem,
  publishRevision,
  queueItemEvent,
  readingWatchers,
  setItemState,
  whoMayRead,
} from '../knowledge/service';
import { itemHref, SPACES } from '../knowledge/shared';
import { reviewTypeOf } from '../knowledge/shared/review-types';
import { notifyUsers } from '../notifications/service';
import { requiredApprovals } from './policy';
import { eligibleReviewers } from './reviewers';

export { reviewPanelFor } from './panel';
export { openRequestCount } from './queries';

/**
 * The review workflow's use cases (issue 22): send the newest revision for review, and a reviewer's decision, which
 * publishes the revision once the approvals its type needs are in. Each is one transaction on the locked item row,
 * so two reviewers approving at once publish exactly once.
 */

type Signed = NonNullable<Actor>;

/** Review requests one person may send in an hour. */
export const REQUESTS_PER_HOUR = { limit: 30, windowSeconds: 3600 } as const;
type Row = Awaited<ReturnType<typeof lockItem>>;

const listOf = (words: string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;

const auditOf = (space: Space) => SPACES[space].audit.entityType;

/** The author of the newest revision (who wrote it) and the item's creator: never its reviewers. */
async function authorsOf(db: Db, row: Row): Promise<string[]> {
  const [v] = await db
    .select({ authorId: documentVersions.authorId })
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, row.id), eq(documentVersions.version, row.version)));
  return [v?.authorId, row.authorId].filter((id): id is string => !!id);
}

/**
 * Sends the item's newest revision for review to `reviewerIds` (who may write the item; 404/403 otherwise): each must
 * be an active editor or admin who may read it, and neither the sender nor the revision's author (400). The item is
 * then in review; the reviewers are told in-app (the notification e-mail job mails them).
 */
export async function requestReview(
  db: Db,
  actor: Signed,
  space: Space,
  id: string,
  reviewerIds: string[],
): Promise<Item> {
  await itemFor(db, actor, space, id, 'item.write');
  // Each request reaches reviewers' mailboxes (the notification e-mail job): bounded per sender.
  await enforce(
    db,
    [{ key: `review-request:${actor.id}`, ...REQUESTS_PER_HOUR }],
    'Too many review requests. Try again later.',
  );
  await db.transaction(async (tx) => {
    const row = await lockItem(tx, space, id);
    if (row.state === 'published' && row.publishedVersion === row.version) {
      throw conflict('This revision is already published: edit the item to make a new one to review.', 'published');
    }
    const ids = [...new Set(reviewerIds)];
    if ((await authorsOf(tx, row)).some((a) => ids.includes(a)) || ids.includes(actor.id)) {
      throw badRequest('You cannot ask the author of a revision to review it: choose other reviewers.');
    }
    const eligible = await eligibleReviewers(tx, row, ids);
    if (eligible.length !== ids.length) {
      throw badRequest('Reviewers must be active editors or admins who may read this item.');
    }
    await tx
      .insert(reviewRequests)
      .values(ids.map((reviewerId) => ({ documentId: id, version: row.version, reviewerId, requestedBy: actor.id })))
      .onConflictDoNothing();
    await setItemState(tx, id, 'in_review');
    const who = await displayNameById(tx, actor.id);
    await notifyUsers(tx, {
      userIds: ids,
      kind: 'review_requested',
      actorId: actor.id,
      documentId: id,
      text: `${who} asked you to review ${row.title}`,
      // The revision to review: the draft, while readers still see the published one.
      link: `${itemHref(space, id, row.title)}?revision=draft`,
    });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'review.requested',
      entityType: auditOf(space),
      entityId: id,
      details: { version: row.version, reviewerIds: ids },
    });
  });
  return (await getItem(db, space, id))!;
}

export interface DecisionInput {
  decision: ReviewDecision;
  comment?: string | null;
}

/** The decider's own request on the item's newest revision: 403 when never asked, 409 when not open any more. */
async function openRequestOf(db: Db, row: Row, reviewerId: string) {
  const mine = await db
    .select()
    .from(reviewRequests)
    .where(and(eq(reviewRequests.documentId, row.id), eq(reviewRequests.reviewerId, reviewerId)));
  if (!mine.length) throw forbidden('You were not asked to review this item.');
  const current = mine.find((r) => r.version === row.version);
  if (!current || row.state !== 'in_review') {
    throw conflict('This revision is no longer under review (it was changed, sent back or published). Reload it.');
  }
  if (current.decidedAt) throw conflict('You have already decided on this revision.');
  return current;
}

/** Who hears of a decision: the round's senders and the revision's authors who may still read the item. */
async function authorsToTell(db: Db, row: Row): Promise<string[]> {
  const senders = await db
    .selectDistinct({ id: reviewRequests.requestedBy })
    .from(reviewRequests)
    .where(and(eq(reviewRequests.documentId, row.id), eq(reviewRequests.version, row.version)));
  const ids = [...senders.map((s) => s.id), ...(await authorsOf(db, row))].filter((x): x is string => !!x);
  return whoMayRead(db, row, ids);
}

/** Approvers of the revision so far, by name. */
async function approversOf(db: Db, row: Row): Promise<string[]> {
  const rows = await db
    .select({ id: reviewRequests.reviewerId })
    .from(reviewRequests)
    .where(
      and(
        eq(reviewRequests.documentId, row.id),
        eq(reviewRequests.version, row.version),
        eq(reviewRequests.decision, 'approve'),
      ),
    );
  const names = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(
      inArray(
        users.id,
        rows.map((r) => r.id),
      ),
    );
  return names.map(displayNameOf).sort();
}

/**
 * A requested reviewer's decision on the newest revision (404 when they may not read the item, 403 when not a
 * reviewer of it, 409 when the revision is no longer under review). "changes" sends the item back to draft; the
 * approval that completes the count its type needs publishes it: one version and one `item.published` event.
 */
export async function decideReview(
  db: Db,
  actor: Signed,
  space: Space,
  id: string,
  input: DecisionInput,
): Promise<{ item: Item; published: boolean }> {
  await itemFor(db, actor, space, id, 'item.review');
  const comment = input.comment?.trim() || null;
  if (input.decision === 'changes' && !comment) throw badRequest('Say what should change: a comment is required.');
  const published = await db.transaction(async (tx) => {
    const row = await lockItem(tx, space, id);
    const request = await openRequestOf(tx, row, actor.id);
    await tx
      .update(reviewRequests)
      .set({ decision: input.decision, comment, decidedAt: new Date() })
      .where(eq(reviewRequests.id, request.id));
    const approved = input.decision === 'approve';
    await recordAudit(tx, {
      actorId: actor.id,
      action: approved ? 'review.approved' : 'review.changes_requested',
      entityType: auditOf(space),
      entityId: id,
      details: { version: row.version, ...(comment ? { comment } : {}) },
    });
    if (!approved) {
      await setItemState(tx, id, 'draft');
      await tellDecision(
        tx,
        space,
        row,
        actor.id,
        `${await displayNameById(tx, actor.id)} requested changes on ${row.title}`,
      );
      return false;
    }
    return publishWhenApproved(tx, space, row, actor.id);
  });
  return { item: (await getItem(db, space, id))!, published };
}

/** Tells the revision's authors and the item's watchers (who may read it) of a decision, once each. */
async function tellDecision(
  db: Db,
  space: Space,
  row: Row,
  actorId: string,
  text: string,
  kind: 'review_decided' | 'published' = 'review_decided',
) {
  const userIds = [...(await authorsToTell(db, row)), ...(await readingWatchers(db, row))];
  await notifyUsers(db, { kind, actorId, text, link: itemHref(space, row.id, row.title), documentId: row.id, userIds });
}

/** Publishes the revision when its approvals reach what its type needs (at least one); true when it did. */
async function publishWhenApproved(db: Db, space: Space, row: Row, actorId: string): Promise<boolean> {
  const needed = Math.max(1, await requiredApprovals(db, reviewTypeOf(space, row.templateType)));
  const approvers = await approversOf(db, row);
  if (approvers.length < needed) {
    const who = await displayNameById(db, actorId);
    await tellDecision(db, space, row, actorId, `${who} approved ${row.title} (${approvers.length} of ${needed})`);
    return false;
  }
  const changeLog = `Published after approval by ${listOf(approvers)} (version ${row.version})`;
  const after = await publishRevision(db, row, actorId, changeLog);
  await recordAudit(db, {
    actorId,
    action: 'item.published',
    entityType: auditOf(space),
    entityId: row.id,
    details: { version: after.version, reviewedVersion: row.version, approvedBy: approvers },
  });
  await queueItemEvent(db, 'item.published', space, after, actorId);
  await tellDecision(
    db,
    space,
    row,
    actorId,
    `${row.title} was published after approval by ${listOf(approvers)}`,
    'published',
  );
  return true;
}
