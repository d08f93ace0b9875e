import type { ReactNode } from 'react';
import { AutoCreatePanel } from '../../ai/views/AutoCreatePanel';
import { Banner } from '../../ui/components';
import { Icon } from '../../ui/icons';
import { DeleteDialog } from './DeleteDialog';
import { Toolbar } from './Toolbar';
import type { ListState } from './urls';

const createOptions = [
  ['knowledge-base', 'Knowledge Base'],
  ['work-instruction', 'Work Instruction'],
  ['how-to-guide', 'How-To Guide'],
  ['build-document', 'Build Document'],
] as const;

/** The Create New menu (a <details> dropdown: no JavaScript needed). */
export function CreateMenu() {
  return (
    <details className="menu kb-create">
      <summary className="btn btn--primary">
        <Icon name="plus" />
        Create New
      </summary>
      <div className="menu__list" role="menu">
        {createOptions.map(([type, label]) => (
          <a key={type} className="menu__item" role="menuitem" href={`/knowledge-base/new?type=${type}`}>
            {label}
          </a>
        ))}
      </div>
    </details>
  );
}

export interface ListPageProps {
  path: string;
  state: ListState;
  categories: string[];
  results: ReactNode;
  /** Knowledge base only: the Auto Create KB panel. */
  autoCreateOpen?: boolean;
  knowledge: boolean;
  notice?: { variant: 'success' | 'error'; text: string };
  /** The clean address after a deep link or a notice (boot.js replaces the URL with it). */
  replaceUrl?: string;
  /** Admins get a link to the deleted items (restorable). */
  admin?: boolean;
}

/** /knowledge-base and /documents: filters, create action, the swappable results, the delete dialog. */
export function ListPage(props: ListPageProps) {
  return (
    <div className="stack kb-page">
      {props.replaceUrl && <div hidden data-replace-url={props.replaceUrl} />}
      {props.knowledge && <AutoCreatePanel open={!!props.autoCreateOpen} />}
      {props.notice && <Banner variant={props.notice.variant}>{props.notice.text}</Banner>}
      <div className="row kb-head">
        <Toolbar
          path={props.path}
          state={props.state}
          categories={props.categories}
          withTypeAndViews={props.knowledge}
          searchLabel={props.knowledge ? 'Search knowledge base' : 'Search documents'}
        />
        <span className="spacer" />
        {props.admin && (
          <a className="btn btn--ghost" href={`${props.path}/deleted`}>
            Deleted items
          </a>
        )}
        {props.knowledge ? (
          <CreateMenu />
        ) : (
          <a className="btn btn--primary" href="/documents/new">
            <Icon name="plus" />
            New Document
          </a>
        )}
      </div>
      <div id="kb-results" className="kb-results">
        {props.results}
      </div>
      <DeleteDialog />
    </div>
  );
}
