import { useState } from 'react';
import type { ApiBase, EditorItem } from '../../../../src/knowledge/shared';
import { Preview } from './Preview';
import { fetchItem } from './save';

/** Shown after a 409: the user's text stays in the editor; the newer version can be opened side by side. */
export function ConflictBanner({
  base,
  id,
  message,
  onOpen,
}: {
  base: ApiBase;
  id: string;
  message: string;
  onOpen: (latest: EditorItem) => void;
}) {
  const [failed, setFailed] = useState(false);
  async function open() {
    setFailed(false);
    try {
      onOpen(await fetchItem(base, id));
    } catch {
      setFailed(true);
    }
  }
  return (
    <section className="banner banner--error editor-conflict" role="alert">
      <div className="stack">
        <strong>This item was changed elsewhere.</strong>
        <span>{message} Your text is kept here and in this browser; nothing you typed is lost.</span>
        <div className="row">
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void open()}>
            Open newer version side by side
          </button>
          {failed && <span>Could not load the newer version.</span>}
        </div>
      </div>
    </section>
  );
}

interface TheirsProps {
  latest: EditorItem;
  /** Save over the newer version (the user's text wins). */
  onKeepMine: () => void;
  /** Drop the user's edits and load the newer version. */
  onTakeTheirs: () => void;
  onClose: () => void;
}

/** The newer version, read-only, beside the user's text. */
export function TheirsPanel({ latest, onKeepMine, onTakeTheirs, onClose }: TheirsProps) {
  return (
    <section className="card editor-theirs" aria-label="Newer version">
      <div className="card__body stack">
        <div className="row">
          <h2 className="card__title">Newer version (v{latest.version})</h2>
          <span className="spacer" />
          <button type="button" className="icon-button" aria-label="Close newer version" onClick={onClose}>
            ×
          </button>
        </div>
        <p>
          <strong>{latest.title}</strong>
        </p>
        <Preview content={latest.content} />
        <div className="row">
          <button type="button" className="btn btn--primary btn--sm" onClick={onKeepMine}>
            Keep my changes
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={onTakeTheirs}>
            Load the newer version
          </button>
        </div>
      </div>
    </section>
  );
}
