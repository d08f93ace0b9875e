import { useState } from 'react';
import {
  deleteQuestion,
  ITEM_TYPES,
  itemHref,
  kbTypeOf,
  SPACES,
  type Item,
  type PreviewItem,
} from '../../../src/knowledge/shared';
import { ServerStateList } from '../../../src/runbooks/shared/ServerStateList';
import { relativeTime } from '../../../src/ui/shared';
import { api } from '../api';
import { ConfirmDialog } from '../ConfirmDialog';
import { toast } from '../toast';
import { ShareDialog } from './ShareDialog';
import { VersionHistory } from './VersionHistory';
import { PreviewComments } from '../comments/PreviewComments';
import { useLiveServers } from './useLiveServers';

const KB = SPACES.knowledge;

export interface ItemPreviewProps {
  item: PreviewItem | null;
  now: string;
  loading: boolean;
  /** The reader may restore deleted items: the delete question then says so instead of "cannot be undone". */
  canRestore: boolean;
  /** The reader's role writes content (the item's own canWrite and canShare decide its buttons too). */
  canWrite: boolean;
  timeZone: string;
  /** How often the linked servers' state is refreshed (the server's SERVERS_PANEL_POLL_MS, as on the read page). */
  serversPollMs: number;
  onDeleted: (id: string) => void;
  onRestored: (item: Item) => void;
}

/** The right pane: title, type, category, version, age, excerpt, tags, rendered content, Edit / Delete / Version History. */
export function ItemPreview(props: ItemPreviewProps) {
  const { item, now, loading, canRestore, canWrite, timeZone, serversPollMs, onDeleted, onRestored } = props;
  const [asking, setAsking] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const servers = useLiveServers(item, serversPollMs);
  if (!item) return <p className="muted kb-split__empty">{loading ? 'Loading…' : 'Select a document to preview'}</p>;
  const mayEdit = item.canWrite ?? canWrite;

  async function remove(id: string) {
    setDeleting(true);
    try {
      await api('DELETE', `${KB.api}/${id}`);
      toast('Success', KB.messages.deleted);
      onDeleted(id);
    } catch {
      toast('Error', 'Failed to delete knowledge base item. Please try again.', 'error');
    } finally {
      setDeleting(false);
    }
  }

  return (
    <article className="kb-preview" aria-busy={loading} aria-label="Preview">
      <header className="kb-preview__header">
        <h2 className="kb-preview__title">
          <a href={itemHref('knowledge', item.id, item.title)}>{item.title}</a>
        </h2>
        <div className="row small">
          <span className="badge badge--neutral">{ITEM_TYPES[kbTypeOf(item.templateType)].label}</span>
          {item.isTemplate && <span className="badge badge--purple">Template</span>}
          {item.category && <span className="badge badge--blue">{item.category}</span>}
          <span className="muted">
            {`v${item.version} · Updated `}
            <time dateTime={item.updatedAt}>{relativeTime(item.updatedAt, new Date(now))}</time>
          </span>
        </div>
        <div className="row">
          {mayEdit && (
            <a className="btn btn--primary btn--sm" href={`${KB.path}/${item.id}/edit`}>
              Edit
            </a>
          )}
          <a className="btn btn--secondary btn--sm" href={itemHref('knowledge', item.id, item.title)}>
            Open page
          </a>
          <VersionHistory
            key={`${item.id}-${item.version}`}
            base={KB.api}
            id={item.id}
            currentVersion={item.version}
            onRestored={onRestored}
            readOnly={!mayEdit}
          />
          {item.canShare && (
            <ShareDialog
              key={`share-${item.id}`}
              base={KB.api}
              id={item.id}
              visibility={item.visibility}
              timeZone={timeZone}
            />
          )}
          {mayEdit && (
            <button
              type="button"
              className="btn btn--danger btn--sm"
              disabled={deleting}
              onClick={() => setAsking(true)}
            >
              Delete
            </button>
          )}
        </div>
      </header>
      {item.excerpt && <p className="kb-preview__excerpt muted">{item.excerpt}</p>}
      {item.tags.length > 0 && (
        <ul className="tag-list" aria-label="Tags">
          {item.tags.map((t) => (
            <li key={t} className="badge badge--outline">
              {t}
            </li>
          ))}
        </ul>
      )}
      {servers.length > 0 && (
        <section className="servers-panel kb-preview__servers" aria-labelledby="kb-preview-servers">
          <h3 className="doc__aside-title" id="kb-preview-servers">
            Servers
          </h3>
          <ServerStateList servers={servers} timeZone={timeZone} />
        </section>
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server sanitises item.html (renderMarkdown) */}
      <div className="prose kb-preview__content" dangerouslySetInnerHTML={{ __html: item.html }} />
      <PreviewComments base={KB.api} id={item.id} href={itemHref('knowledge', item.id, item.title)} />
      {asking && (
        <ConfirmDialog
          id="kb-preview-delete"
          title="Delete item"
          question={deleteQuestion(item.title, canRestore)}
          onConfirm={() => void remove(item.id)}
          onClose={() => setAsking(false)}
        />
      )}
    </article>
  );
}
