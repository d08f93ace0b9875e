import { formatDateTime } from '../../ui/shared';

export interface SharePageProps {
  title: string;
  updatedAt: string;
  /** The item's content as the read page renders it, images and links made share-safe (share-content.ts). */
  html: string;
  /** The stylesheet (the only thing the page loads from the app besides the item's images). */
  css: string;
}

/**
 * A share link's page: a bare document with the item's title and content. No app chrome, no script of any kind, no
 * link into the app; robots are told not to index it.
 */
export function SharePage({ title, updatedAt, html, css }: SharePageProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <title>{title}</title>
        <link rel="stylesheet" href={css} />
      </head>
      <body className="share-page">
        <article className="doc share-page__doc">
          <header className="doc__header">
            <h1 className="doc__title">{title}</h1>
            <p className="muted small">
              {'Shared read-only · updated '}
              <time dateTime={updatedAt}>{formatDateTime(updatedAt, 'UTC')}</time>
              {' UTC'}
            </p>
          </header>
          {html ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: renderDocument sanitises it; shareHtml only rewrites src/href
            <div className="prose doc__body" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <p className="muted">No content yet...</p>
          )}
        </article>
      </body>
    </html>
  );
}

/** The one answer to an unknown, expired or revoked link, a deleted item or too many tries: no detail. */
export const SHARE_NOT_FOUND =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><title>Not found</title></head><body><h1>Not found</h1></body></html>';
