import type { TocEntry } from '../../markdown/document';
import type { ReviewPanelData } from '../../reviews/schemas';
import { Badge } from '../../ui/components';
import { Island } from '../../ui/Island';
import { displayName } from '../../ui/Sidebar';
import { formatDateTime } from '../../ui/shared';
import { ServersPanel } from '../../runbooks/shared/ServersPanel';
import type { ReadableItem } from '../reading';
import { SPACES, type Space } from '../shared';
import { DELETE_DIALOG_ID, DeleteDialog } from './DeleteDialog';
import { TypeLabel } from './ItemBits';
import { ReviewStatus } from './ReviewDate';
import { WatchButton } from './WatchButton';
import { CommentsSection, type CommentsSectionProps } from '../../comments/shared/CommentsSection';
import { ReviewPanel } from './ReviewPanel';
import { KeepOfflineButton, type OfflineState } from '../../offline/shared/KeepOfflineButton';

/** A contents list is worth its space from this many headings on. */
const TOC_MIN_HEADINGS = 3;
/** Deeper headings are left out of the contents list. */
const TOC_MAX_LEVEL = 3;

export interface ReadPageProps {
  space: Space;
  read: ReadableItem;
  /** The list to go back to, with the filters the reader came from. */
  back: string;
  timeZone: string;
  /** What the reader may do here. */
  actions: { edit: boolean; history: boolean; delete: boolean; share: boolean };
  /** The page's small script (code copy, heading links); absent when the build has none. */
  script?: string;
  /** The reader watches the item (the Watch / Unwatch button). */
  watching?: boolean;
  /** The item's comment threads (issue 22), as its comments section shows them. */
  comments: Pick<CommentsSectionProps, 'threads' | 'script'>;
  /** The review workflow's state and forms (issue 22). */
  review?: ReviewPanelData;
  /** How often the open page refreshes its Servers panel (configuration). */
  serversPollMs: number;
  /** Whether the reader keeps it offline (issue 25): their choice, their team's server, or not. */
  offline?: OfflineState;
}

const ownerName = (item: ReadableItem['item']) => {
  const person = item.owner ?? item.author;
  return person ? displayName(person) : 'Unknown';
};

/** Knowledge Base › Category: back to the list the reader came from, and to the item's category. */
function Breadcrumb({ space, back, category }: { space: Space; back: string; category: string | null }) {
  const { path, page } = SPACES[space];
  return (
    <nav className="breadcrumb small" aria-label="Breadcrumb">
      <ol>
        <li>
          <a href={back}>{page.title}</a>
        </li>
        {category && (
          <li>
            <a href={`${path}?category=${encodeURIComponent(category)}`}>{category}</a>
          </li>
        )}
      </ol>
    </nav>
  );
}

/** The item's facts in one line: type, Template, category, version, updated time (reader's timezone), owner. */
function Facts({ space, read, timeZone }: Pick<ReadPageProps, 'space' | 'read' | 'timeZone'>) {
  const { item } = read;
  return (
    <p className="doc__facts small">
      {/* The spaces between the parts are for copied text and screen readers; flex lays them out with its gap. */}
      {SPACES[space].hasKinds && <TypeLabel item={item} />} {item.isTemplate && <Badge colour="purple">Template</Badge>}{' '}
      {item.category && <Badge colour="blue">{item.category}</Badge>}{' '}
      <span className="muted">{`v${item.version}`}</span>{' '}
      <span className="muted">
        {'Updated '}
        <time dateTime={item.updatedAt}>{formatDateTime(item.updatedAt, timeZone)}</time>
      </span>{' '}
      <span className="muted">{ownerName(item)}</span>{' '}
      {item.visibility === 'restricted' && <Badge colour="yellow">Restricted</Badge>}
    </p>
  );
}

/** Edit (a link), Delete (the list's confirmation dialog; a page without JS) and Version History (an island on click). */
function Actions(props: Pick<ReadPageProps, 'space' | 'read' | 'back' | 'actions' | 'timeZone'>) {
  const { space, read, back, actions, timeZone } = props;
  const { path, api } = SPACES[space];
  const { item } = read;
  const deleteHref = `${path}/${item.id}/delete?back=${encodeURIComponent(back)}`;
  // Download and Print give what the page shows: the draft when the reader opened it.
  const shown = read.revision.showing === 'draft' ? '?revision=draft' : '';
  return (
    <div className="row doc__actions">
      {actions.edit && (
        <a className="btn btn--primary btn--sm" href={`${path}/${item.id}/edit`}>
          Edit
        </a>
      )}
      {actions.delete && (
        <a
          className="btn btn--danger btn--sm"
          href={deleteHref}
          hx-get={deleteHref}
          hx-target={`#${DELETE_DIALOG_ID}`}
          data-open-dialog={DELETE_DIALOG_ID}
        >
          Delete
        </a>
      )}
      <a className="btn btn--secondary btn--sm" href={`${path}/${item.id}/activity`}>
        Activity
      </a>
      {/* Issue 25: the item as markdown (a zip when it has images) and its print view (src/exports). */}
      <a className="btn btn--secondary btn--sm" href={`${api}/${item.id}/export.md${shown}`} download>
        Download markdown
      </a>
      <a className="btn btn--secondary btn--sm" href={`${path}/${item.id}/print${shown}`}>
        Print
      </a>
      {actions.history && (
        <>
          {/* Last in the row: it appears once the script runs, and moves nothing before it. */}
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            data-island-trigger="ItemHistory"
            data-js-only=""
            hidden
          >
            Version History
          </button>
          <Island
            name="ItemHistory"
            props={{ base: api, id: item.id, currentVersion: item.version, readOnly: !actions.edit }}
            load="interaction"
            clientOnly
          />
        </>
      )}
      {actions.share && (
        <>
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            data-island-trigger="ShareDialog"
            data-js-only=""
            hidden
          >
            Share
          </button>
          <Island
            name="ShareDialog"
            props={{ base: api, id: item.id, visibility: item.visibility, timeZone }}
            load="interaction"
            clientOnly
          />
        </>
      )}
    </div>
  );
}

function TocList({ headings }: { headings: TocEntry[] }) {
  const top = Math.min(...headings.map((h) => h.level));
  return (
    <ol className="toc__list">
      {headings.map((h) => (
        <li key={h.id} className={`toc__item toc__item--${h.level - top + 1}`}>
          <a href={`#${h.id}`}>{h.text}</a>
        </li>
      ))}
    </ol>
  );
}

/** Contents: collapsed above the text on phones, a sticky list beside it on wide screens (CSS shows one). */
function Toc({ headings, at }: { headings: TocEntry[]; at: 'inline' | 'side' }) {
  const listed = headings.filter((h) => h.level <= TOC_MAX_LEVEL);
  if (listed.length < TOC_MIN_HEADINGS) return null;
  if (at === 'side') {
    return (
      <nav className="toc toc--side" aria-label="Contents">
        <h2 className="toc__title">Contents</h2>
        <TocList headings={listed} />
      </nav>
    );
  }
  return (
    <details className="toc toc--inline">
      <summary>Contents</summary>
      <TocList headings={listed} />
    </details>
  );
}

function Tags({ tags }: { tags: string[] }) {
  if (!tags.length) return null;
  return (
    <section className="doc__aside-part" aria-label="Tags">
      <h2 className="doc__aside-title">Tags</h2>
      <ul className="tag-list">
        {tags.map((t) => (
          <li key={t}>
            <Badge outline>{t}</Badge>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** For one who may edit an item linked to no server: where to link its servers (the editor's Servers picker). */
function LinkServersHint({ href }: { href: string }) {
  return (
    <div className="doc__aside-part">
      <h2 className="doc__aside-title">Servers</h2>
      <p className="small muted">
        No server linked. <a href={href}>Link servers</a> to see their state here.
      </p>
    </div>
  );
}

/** An item's own read page: everything server-rendered, readable without JavaScript. */
export function ReadPage(props: ReadPageProps) {
  const { space, read, back, timeZone, actions, script, watching, comments, review, serversPollMs, offline } = props;
  const { item } = read;
  return (
    <article className="doc">
      <header className="doc__header">
        <Breadcrumb space={space} back={back} category={item.category} />
        <h1 className="doc__title">{item.title}</h1>
        <Facts space={space} read={read} timeZone={timeZone} />
        <ReviewStatus space={space} item={item} timeZone={timeZone} canMark={actions.edit} />
        <Actions space={space} read={read} back={back} actions={actions} timeZone={timeZone} />
        {/* Watch and Keep offline share one line (a phone keeps the first paragraph in its first screen). */}
        <div className="doc__follow">
          <WatchButton space={space} id={item.id} watching={!!watching} />
          <KeepOfflineButton space={space} id={item.id} state={offline ?? null} />
        </div>
        {review && <ReviewPanel review={review} editable={actions.edit} />}
      </header>
      <div className="doc__layout">
        <div className="doc__main">
          <Toc headings={read.headings} at="inline" />
          {read.html ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: renderDocument sanitises it
            <div className="prose doc__body" dangerouslySetInnerHTML={{ __html: read.html }} />
          ) : (
            <p className="muted">No content yet...</p>
          )}
          <CommentsSection itemPath={`${SPACES[space].path}/${item.id}`} timeZone={timeZone} {...comments} />
        </div>
        <aside className="doc__aside">
          {!read.servers.length && actions.edit && <LinkServersHint href={`${SPACES[space].path}/${item.id}/edit`} />}
          <ServersPanel
            servers={read.servers}
            timeZone={timeZone}
            refreshUrl={`${SPACES[space].path}/${item.id}/servers-panel`}
            pollMs={serversPollMs}
          />
          <Tags tags={item.tags} />
          {/* Last: it sticks while the rest of the column scrolls away. */}
          <Toc headings={read.headings} at="side" />
        </aside>
      </div>
      {actions.delete && <DeleteDialog />}
      {script && <script type="module" src={script} />}
    </article>
  );
}
