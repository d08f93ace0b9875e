import type { ReactNode } from 'react';
import { Banner } from '../../ui/components';
import { Icon } from '../../ui/icons';
import { ITEM_TYPES, kbTypes, SPACES, type Space } from '../shared';
import { AutoCreatePanel } from './AutoCreatePanel';
import { Toolbar } from './Toolbar';
import type { ListState } from './urls';

/** The Create New menu (a <details> dropdown: no JavaScript needed); last, Import for those who may import. */
export function CreateMenu({ canImport }: { canImport?: boolean }) {
  return (
    <details className="menu kb-create">
      <summary className="btn btn--primary">
        <Icon name="plus" />
        Create New
      </summary>
      <div className="menu__list" role="menu">
        {kbTypes.map((type) => (
          <a key={type} className="menu__item" role="menuitem" href={`${SPACES.knowledge.path}/new?type=${type}`}>
            {ITEM_TYPES[type].label}
          </a>
        ))}
        {canImport && (
          <a className="menu__item" role="menuitem" href="/import?space=knowledge">
            Import Markdown…
          </a>
        )}
      </div>
    </details>
  );
}

export interface ListPageProps {
  space: Space;
  state: ListState;
  categories: string[];
  results: ReactNode;
  /** Knowledge base only: the Auto Create KB panel. */
  autoCreateOpen?: boolean;
  notice?: { variant: 'success' | 'error'; text: string };
  /** The clean address after a deep link or a notice (boot.js replaces the URL with it). */
  replaceUrl?: string;
  /** Admins get a link to the deleted items (restorable). */
  admin?: boolean;
  /** The reader may create items (viewers and auditors see no create actions). */
  canWrite: boolean;
  /** The reader may import Markdown (issue 25): the Create New menu's last entry, a quiet link on documents. */
  canImport?: boolean;
}

/** /knowledge-base and /documents: filters, create action, the swappable results (with the delete dialog). */
export function ListPage(props: ListPageProps) {
  const { path, hasKinds, page } = SPACES[props.space];
  return (
    <div className="stack kb-page">
      {props.replaceUrl && <div hidden data-replace-url={props.replaceUrl} />}
      {hasKinds && props.canWrite && <AutoCreatePanel open={!!props.autoCreateOpen} />}
      {props.notice && <Banner variant={props.notice.variant}>{props.notice.text}</Banner>}
      <div className="row kb-head">
        <Toolbar
          path={path}
          state={props.state}
          categories={props.categories}
          withTypeAndViews={hasKinds}
          searchLabel={page.searchLabel}
        />
        <span className="spacer" />
        {props.admin && (
          <a className="btn btn--ghost" href={`${path}/deleted`}>
            Deleted items
          </a>
        )}
        {!hasKinds && props.canImport && (
          <a className="btn btn--ghost" href={`/import?space=${props.space}`}>
            Import
          </a>
        )}
        {props.canWrite &&
          (hasKinds ? (
            <CreateMenu canImport={props.canImport} />
          ) : (
            <a className="btn btn--primary" href={`${path}/new`}>
              <Icon name="plus" />
              New Document
            </a>
          ))}
      </div>
      <div id="kb-results" className="kb-results">
        {props.results}
      </div>
    </div>
  );
}
