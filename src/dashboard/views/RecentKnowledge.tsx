import { Badge, Card, EmptyState } from '../../ui/components';
import { relativeTime } from '../../ui/shared';
import { itemHref } from '../../knowledge/shared';
import type { RecentArticle } from '../service';

/** Spec: Template if isTemplate, else Published if isPublished, else Draft. */
export function articleBadge(a: Pick<RecentArticle, 'isTemplate' | 'isPublished'>) {
  if (a.isTemplate) return <Badge colour="purple">Template</Badge>;
  if (a.isPublished) return <Badge colour="green">Published</Badge>;
  return <Badge colour="neutral">Draft</Badge>;
}

/** Spec: first plus last name, or the e-mail when there is no first name. */
export const authorName = (a: RecentArticle['author']) =>
  !a ? 'Unknown author' : a.firstName ? [a.firstName, a.lastName].filter(Boolean).join(' ') : a.email;

/** The Recent Knowledge Base panel: up to 5 rows linking to each item's page (where the spec's ?doc= now leads). */
export function RecentKnowledge({ articles, now }: { articles: RecentArticle[]; now: Date }) {
  return (
    <Card
      title="Recent Knowledge Base"
      className="span-2"
      actions={
        <a className="btn btn--sm" href="/knowledge-base">
          View All
        </a>
      }
    >
      {articles.length === 0 ? (
        <EmptyState icon="book" title="No recent knowledge base articles found" />
      ) : (
        <ul className="dash-recent">
          {articles.map((a) => (
            <li key={a.id}>
              <a className="dash-recent__row" href={itemHref('knowledge', a.id, a.title)}>
                <span className="dash-recent__text">
                  <span className="dash-recent__title">{a.title}</span>
                  <span className="muted small">{`${authorName(a.author)} · ${relativeTime(a.updatedAt, now)}`}</span>
                </span>
                {articleBadge(a)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
