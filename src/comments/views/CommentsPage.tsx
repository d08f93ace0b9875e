import { CommentsSection, type CommentsSectionProps } from '../shared/CommentsSection';

/** An item's comments on their own page: what a plain form comes back to when it was refused. */
export function CommentsPage({
  itemHref,
  title,
  section,
}: {
  itemHref: string;
  title: string;
  section: CommentsSectionProps;
}) {
  return (
    <article className="doc">
      <header className="doc__header">
        <p className="small">
          <a href={itemHref}>← Back to the item</a>
        </p>
        <h1 className="doc__title">{title}</h1>
      </header>
      <CommentsSection {...section} />
    </article>
  );
}
