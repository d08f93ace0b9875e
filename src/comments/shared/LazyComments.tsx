import { COMMENTS_ID } from './CommentsSection';

/**
 * A place for an item's comments on a page that needs JavaScript anyway (the editor): htmx loads the section
 * (GET {itemPath}/comments) once the page is up; without it, a link to the item's page, where they are.
 */
export function LazyComments({ itemPath }: { itemPath: string }) {
  return (
    <section
      id={COMMENTS_ID}
      className="comments"
      hx-get={`${itemPath}/comments`}
      hx-trigger="load"
      hx-swap="outerHTML"
    >
      <h2 className="comments__title">Comments</h2>
      <p className="muted">
        <a href={`${itemPath}#${COMMENTS_ID}`}>Loading the comments…</a>
      </p>
    </section>
  );
}
