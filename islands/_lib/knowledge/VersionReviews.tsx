import type { VersionItem } from '../../../src/knowledge/shared';
import { relativeTime } from '../../../src/ui/shared';

/** Version History's review marks (issue 22): Published / Draft beside a version, and who approved it and when. */

export function RevisionBadge({ version }: { version: VersionItem }) {
  if (version.published) return <span className="badge badge--blue">Published</span>;
  if (version.draft) return <span className="badge badge--neutral">Draft</span>;
  return null;
}

const DECISION = { approve: 'Approved', changes: 'Changes requested' } as const;

export function VersionReviews({ version }: { version: VersionItem }) {
  if (!version.reviews?.length) return null;
  return (
    <ul className="small vh__reviews" aria-label="Reviews">
      {version.reviews.map((r) => (
        <li key={`${r.reviewerName}-${r.decidedAt}`}>
          {`${DECISION[r.decision]} by ${r.reviewerName} · `}
          <time dateTime={r.decidedAt} title={r.decidedAt}>
            {relativeTime(r.decidedAt)}
          </time>
          {r.comment && <q className="muted">{` ${r.comment}`}</q>}
        </li>
      ))}
    </ul>
  );
}
