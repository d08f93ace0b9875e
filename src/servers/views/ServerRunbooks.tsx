import { Badge, Banner, Card } from '../../ui/components';
import { isKbType, ITEM_TYPES, itemHref, spaceOf } from '../../knowledge/shared';
import type { LinkCandidate } from '../../runbooks/service';
import type { LinkedDocument } from '../service';
import { SERVER_RUNBOOKS_ID } from '../shared';

/** The "Link a document" search: its text and what it found (null when the reader may not link). */
export interface LinkSearch {
  q: string;
  results: LinkCandidate[];
}

export interface ServerRunbooksProps {
  serverId: string;
  links: LinkedDocument[];
  search: LinkSearch | null;
  linkError?: string;
  /** May the reader link, unlink and create documents (can content.write)? */
  canWrite: boolean;
}

/** The words for a link's type: the item's kind ("Work Instruction"), "Document", or a stored older type as it is. */
export function linkTypeLabel(type: string): string {
  if (isKbType(type)) return ITEM_TYPES[type].label;
  return type === 'document' ? 'Document' : type;
}

function LinkedList({ serverId, links, canWrite }: Pick<ServerRunbooksProps, 'serverId' | 'links' | 'canWrite'>) {
  if (links.length === 0) return <p className="muted">No documents linked yet.</p>;
  return (
    <ul className="server-docs" aria-label="Linked documents">
      {links.map((l) => (
        <li key={l.documentId} className="row">
          <a href={itemHref(spaceOf(l.space), l.documentId, l.title)}>{l.title}</a>
          <Badge>{linkTypeLabel(l.documentType)}</Badge>
          <span className="spacer" />
          {canWrite && (
            <form method="post" action={`/infrastructure/${serverId}/documents/${l.documentId}/delete`}>
              <button type="submit" className="btn btn--sm btn--ghost" aria-label={`Unlink ${l.title}`}>
                Unlink
              </button>
            </form>
          )}
        </li>
      ))}
    </ul>
  );
}

function SearchResults({ serverId, search }: { serverId: string; search: LinkSearch }) {
  if (!search.q.trim()) return null;
  if (search.results.length === 0)
    return <p className="muted">{`No unlinked document you may read has “${search.q.trim()}” in its title.`}</p>;
  return (
    <ul className="server-docs" aria-label="Matching documents">
      {search.results.map((d) => (
        <li key={d.id} className="row">
          <span>{d.title}</span>
          <Badge>{linkTypeLabel(d.documentType)}</Badge>
          <span className="spacer" />
          <form method="post" action={`/infrastructure/${serverId}/documents`}>
            <input type="hidden" name="documentId" value={d.id} />
            <button type="submit" className="btn btn--sm" aria-label={`Link ${d.title}`}>
              Link
            </button>
          </form>
        </li>
      ))}
    </ul>
  );
}

/** "Link a document": a GET search by title, then a Link button (a POST form) per match; works without JavaScript. */
function LinkForm({ serverId, search, linkError }: { serverId: string; search: LinkSearch; linkError?: string }) {
  return (
    <section id="link-document" className="stack server-link-form" aria-labelledby="link-document-title">
      <h3 id="link-document-title" className="field__label">
        Link a document
      </h3>
      {linkError && <Banner variant="error">{linkError}</Banner>}
      <form method="get" action={`/infrastructure/${serverId}#link-document`} className="row">
        <label className="visually-hidden" htmlFor="link-search">
          Document title
        </label>
        <input
          id="link-search"
          type="search"
          name="q"
          className="input"
          defaultValue={search.q}
          placeholder="Search documents by title"
          maxLength={255}
        />
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      <SearchResults serverId={serverId} search={search} />
    </section>
  );
}

/** The detail page's Runbooks card: linked documents (→ their read pages), and for editors New/Link/Unlink. */
export function ServerRunbooks({ serverId, links, search, linkError, canWrite }: ServerRunbooksProps) {
  return (
    <Card id={SERVER_RUNBOOKS_ID} title="Runbooks" subtitle="Documents linked to this server">
      <div className="stack">
        {canWrite && (
          <div className="row">
            <a className="btn btn--sm" href={`/knowledge-base/new?type=work-instruction&server=${serverId}`}>
              New runbook
            </a>
            <a className="btn btn--sm" href={`/knowledge-base/new?type=build-document&server=${serverId}`}>
              Create build document
            </a>
          </div>
        )}
        <LinkedList serverId={serverId} links={links} canWrite={canWrite} />
        {canWrite && search && <LinkForm serverId={serverId} search={search} linkError={linkError} />}
      </div>
    </Card>
  );
}
