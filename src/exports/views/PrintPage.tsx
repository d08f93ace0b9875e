import type { ReadableItem } from '../../knowledge/service';
import { ITEM_TYPES, itemHref, kbTypeOf, SPACES, TEMPLATE_TYPE_LABELS, type Space } from '../../knowledge/shared';
import { formatDate, formatDateTime } from '../../ui/shared';
import { PRINT_CSS } from './print-css';

export interface PrintPageProps {
  space: Space;
  read: ReadableItem;
  timeZone: string;
  /** app.css (the content's .prose look). */
  css: string;
  printedAt: Date;
}

type Person = { firstName: string | null; lastName: string | null; email: string } | null | undefined;

const nameOf = (p: Person) => (p ? [p.firstName, p.lastName].filter(Boolean).join(' ').trim() || p.email : 'Unknown');

/** The kind of item as the read page names it. */
function kindOf(space: Space, templateType: ReadableItem['item']['templateType']): string {
  if (SPACES[space].hasKinds) return ITEM_TYPES[kbTypeOf(templateType)].label;
  return templateType ? TEMPLATE_TYPE_LABELS[templateType] : 'Document';
}

/** The title block's facts: version, owner, review date, linked servers (and category, updated). */
function Facts({ read, timeZone }: Pick<PrintPageProps, 'read' | 'timeZone'>) {
  const { item, servers } = read;
  return (
    <dl className="print__facts">
      <dt>Version</dt>
      <dd>{`v${item.version}`}</dd>
      <dt>Owner</dt>
      <dd>{nameOf(item.owner ?? item.author)}</dd>
      <dt>Review date</dt>
      <dd>{item.reviewDueAt ? formatDate(item.reviewDueAt, timeZone) : 'None'}</dd>
      <dt>Linked servers</dt>
      <dd>
        {servers.length ? (
          <ul className="print__servers">
            {servers.map((s) => (
              <li key={s.id}>{`${s.name}${s.hostname ? ` (${s.hostname})` : ''} · ${s.status}`}</li>
            ))}
          </ul>
        ) : (
          'None'
        )}
      </dd>
      <dt>Category</dt>
      <dd>{item.category || 'Uncategorized'}</dd>
      <dt>Updated</dt>
      <dd>{formatDateTime(item.updatedAt, timeZone)}</dd>
    </dl>
  );
}

/**
 * An item's print view: a whole HTML document of its own, without the app's frame (no sidebar, no header) and
 * without any script; the content rendered and sanitised exactly as on the read page.
 */
export function PrintPage({ space, read, timeZone, css, printedAt }: PrintPageProps) {
  const { item } = read;
  const readHref = itemHref(space, item.id, item.title);
  // Lazy images might not be loaded when the browser lays out the pages.
  const html = read.html.replace(/<img\b[^>]*>/g, (tag) => tag.replace(' loading="lazy"', ''));
  return (
    <html lang="en" data-theme="light">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{`${item.title} · Ops Hub`}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href={css} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant stylesheet (text would be escaped) */}
        <style dangerouslySetInnerHTML={{ __html: PRINT_CSS }} />
      </head>
      <body>
        <main className="print">
          <p className="print__bar">
            <span>Print this page or save it as PDF with your browser (Ctrl+P, ⌘P on a Mac).</span>
            <a href={readHref}>Back to the {SPACES[space].noun}</a>
          </p>
          <header className="print__block">
            <p className="print__kicker">{kindOf(space, item.templateType)}</p>
            <h1 className="print__title">{item.title}</h1>
            <Facts read={read} timeZone={timeZone} />
          </header>
          {read.html ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: renderDocument sanitises it (the read page's rendering)
            <div className="prose print__body" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <p>No content yet.</p>
          )}
          <footer className="print__foot">
            {`Printed from Ops Hub on ${formatDateTime(printedAt, timeZone)} · ${readHref}`}
          </footer>
        </main>
      </body>
    </html>
  );
}
