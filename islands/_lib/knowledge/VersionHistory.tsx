import { useEffect, useMemo, useRef, useState } from 'react';
import {
  diffLines,
  SPACES,
  spaceOfApi,
  type ApiBase,
  type Item,
  type VersionItem,
} from '../../../src/knowledge/shared';
import { relativeTime } from '../../../src/ui/shared';
import { api } from '../api';
import { toast } from '../toast';
import { RevisionBadge, VersionReviews } from './VersionReviews';

export interface VersionHistoryProps {
  base: ApiBase;
  id: string;
  currentVersion: number;
  /** Called with the restored item. */
  onRestored: (item: Item) => void;
  /**
   * A server-rendered button that opens the dialog (a CSS selector), instead of a button of its own: the island is
   * mounted by that button's first click, so it opens at once.
   */
  trigger?: string;
  /** The reader may only read the item: versions are shown without Restore. */
  readOnly?: boolean;
}

const LOAD_FAILED = 'Failed to load version history. Please try again.';

/** The Version History button and dialog: versions (Current badge), preview, line diff against the current one, Restore. */
export function VersionHistory({ base, id, currentVersion, onRestored, trigger, readOnly }: VersionHistoryProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [versions, setVersions] = useState<VersionItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showDiff, setShowDiff] = useState(true);

  async function show() {
    if (!dialog.current?.open) dialog.current?.showModal();
    setVersions(null);
    setFailed(false);
    setSelectedId(null);
    try {
      setVersions(await api<VersionItem[]>('GET', `${base}/${id}/versions`));
    } catch {
      setFailed(true);
      toast('Error', LOAD_FAILED, 'error');
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: show() is the latest render's; attach once per trigger
  useEffect(() => {
    if (!trigger) return;
    const button = document.querySelector(trigger);
    const open = () => void show();
    button?.addEventListener('click', open);
    open();
    return () => button?.removeEventListener('click', open);
  }, [trigger]);

  const latest = versions?.[0];
  const selected = versions?.find((v) => v.id === selectedId) ?? null;
  const diff = useMemo(
    () => (selected && latest && showDiff ? diffLines(selected.content, latest.content) : null),
    [selected, latest, showDiff],
  );
  const kind = SPACES[spaceOfApi(base)].noun;

  async function restore(version: VersionItem) {
    setBusy(true);
    try {
      const item = await api<Item>('POST', `${base}/${id}/restore/${version.id}`, {
        version: latest?.version ?? currentVersion,
      });
      toast('Version Restored', `Restored from version ${version.version}.`);
      dialog.current?.close();
      onRestored(item);
    } catch {
      toast('Restore Failed', `Failed to restore ${kind} version. Please try again.`, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {!trigger && (
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => void show()}>
          Version History
        </button>
      )}
      <dialog ref={dialog} className="dialog dialog--wide vh" aria-label="Version History">
        <header className="dialog__header">
          <h2 className="dialog__title">Version History</h2>
          <span className="spacer" />
          <button type="button" className="icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
            ×
          </button>
        </header>
        <div className="vh__body">
          <ul className="vh__list" aria-label="Versions">
            {failed && (
              <li className="stack">
                <p className="field__error" role="alert">
                  {LOAD_FAILED}
                </p>
                <button type="button" className="btn btn--secondary btn--sm" onClick={() => void show()}>
                  Retry
                </button>
              </li>
            )}
            {versions === null && !failed && <li className="muted small">Loading…</li>}
            {versions?.length === 0 && <li className="muted">No version history available</li>}
            {versions?.map((v) => (
              <li key={v.id}>
                <button
                  type="button"
                  className="vh__version"
                  aria-pressed={v.id === selectedId}
                  onClick={() => setSelectedId(v.id)}
                >
                  <span className="row">
                    <strong>Version {v.version}</strong>
                    {v.id === latest?.id && <span className="badge badge--green">Current</span>}
                    <RevisionBadge version={v} />
                  </span>
                  <span className="muted small">
                    {v.authorName} · {relativeTime(v.createdAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <section className="vh__preview" aria-label="Version preview">
            {!selected ? (
              <p className="muted">Select a version to preview its content</p>
            ) : (
              <>
                <h3 className="vh__title">{selected.title}</h3>
                <p className="muted small">
                  Version {selected.version} by {selected.authorName} · {relativeTime(selected.createdAt)}
                </p>
                {selected.changeLog && <p className="vh__changelog">{selected.changeLog}</p>}
                <VersionReviews version={selected} />
                <div className="row">
                  {selected.id !== latest?.id && !readOnly && (
                    <button
                      type="button"
                      className="btn btn--primary btn--sm"
                      disabled={busy}
                      onClick={() => void restore(selected)}
                    >
                      {busy ? 'Restoring…' : 'Restore Version'}
                    </button>
                  )}
                  <label className="checkbox small">
                    <input type="checkbox" checked={showDiff} onChange={(e) => setShowDiff(e.target.checked)} />
                    Compare with current
                  </label>
                </div>
                {diff ? (
                  <section aria-label={`Changes from version ${selected.version} to the current version`}>
                    <pre className="vh__diff">
                      {diff.map((line, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are recomputed, position is identity
                        <div key={i} className={`vh__line vh__line--${line.kind}`}>
                          {line.kind === 'add' ? '+ ' : line.kind === 'remove' ? '- ' : '  '}
                          {line.text}
                        </div>
                      ))}
                    </pre>
                  </section>
                ) : (
                  <pre className="vh__content">{selected.content}</pre>
                )}
              </>
            )}
          </section>
        </div>
      </dialog>
    </>
  );
}
