import type { ReactNode } from 'react';
import { EmptyState } from '../../ui/components';
import type { Item, ViewMode } from '../schemas';
import { DeleteDialog } from './DeleteDialog';
import { GridSkeleton, ItemGrid } from './ItemGrid';
import { ItemList, ListSkeleton } from './ItemList';
import { listUrl, type ListState } from './urls';

export interface ResultsProps {
  path: string;
  state: ListState;
  items: Item[];
  total: number;
  now: Date;
  /** The empty state (spec texts differ per screen and per filtering). */
  empty: ReactNode;
  /** The category view's island, when view=category. */
  category?: ReactNode;
  showType?: boolean;
  /** The reader may create items (viewers and auditors see no create or delete buttons). */
  canWrite: boolean;
  /** Whether the reader may edit (and so delete) an item. */
  canEdit: (item: Item) => boolean;
  /** Admins: the whole-space export of these filters (issue 25). */
  exportHref?: string;
}

/** "Showing 60 of 812" and a link that shows more (the list is capped so big spaces stay fast). */
function MoreLink({ path, state, shown, total }: { path: string; state: ListState; shown: number; total: number }) {
  if (shown >= total) return null;
  const href = listUrl(path, { ...state, limit: Math.min(1000, (state.limit ?? shown) + 60) });
  return (
    <p className="row kb-more">
      <span className="muted small">
        Showing {shown} of {total}
      </span>
      {shown < 1000 && (
        <a className="btn btn--secondary btn--sm" href={href} hx-get={href} hx-target="#kb-results" hx-push-url="true">
          Show more
        </a>
      )}
    </p>
  );
}

/**
 * The swapped part of a list screen: skeletons (shown while htmx loads), the items in the chosen view, and the
 * delete dialog (swapped with them, so a delete's new results close it).
 */
export function Results(props: ResultsProps) {
  const view: ViewMode = props.state.view ?? 'grid';
  return (
    <>
      <div className="kb-loading htmx-indicator" aria-hidden="true">
        {view === 'list' ? <ListSkeleton /> : <GridSkeleton />}
      </div>
      {props.exportHref && (
        <p className="row kb-export">
          <span className="spacer" />
          <a className="btn btn--ghost btn--sm" href={props.exportHref} download>
            Export
          </a>
        </p>
      )}
      <div className="kb-results__body" aria-live="polite">
        {view === 'category' && props.category ? (
          props.category
        ) : props.items.length === 0 ? (
          props.empty
        ) : (
          <>
            {view === 'list' ? (
              <ItemList items={props.items} path={props.path} now={props.now} canEdit={props.canEdit} />
            ) : (
              <ItemGrid
                items={props.items}
                path={props.path}
                now={props.now}
                showType={props.showType}
                canEdit={props.canEdit}
              />
            )}
            <MoreLink path={props.path} state={props.state} shown={props.items.length} total={props.total} />
          </>
        )}
      </div>
      {props.canWrite && <DeleteDialog />}
    </>
  );
}

/** The knowledge base's empty states (spec texts). */
export function KnowledgeEmpty({ filtering }: { filtering: boolean; canWrite?: boolean }) {
  return filtering ? (
    <EmptyState icon="search" title="No items found" text="Try adjusting your search criteria" />
  ) : (
    <EmptyState icon="book" title="No knowledge items yet" text="Create your first knowledge item to get started" />
  );
}

/** The empty states of each space's list. */
export const EMPTY_STATES = { knowledge: KnowledgeEmpty, documents: DocumentsEmpty } as const;

/** The documents screen's empty states (the create button only for those who may create). */
export function DocumentsEmpty({ filtering, canWrite }: { filtering: boolean; canWrite?: boolean }) {
  return filtering ? (
    <EmptyState icon="search" title="No documents found" text="Try adjusting your search or filter criteria" />
  ) : (
    <EmptyState icon="file" title="No documents yet" text="Get started by creating your first document">
      {canWrite && (
        <a className="btn btn--primary" href="/documents/new">
          Create Your First Document
        </a>
      )}
    </EmptyState>
  );
}
