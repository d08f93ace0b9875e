import { useEffect, useRef, useState } from 'react';
import {
  VISIBILITY_LABELS,
  type ApiBase,
  type ItemShare,
  type ItemVisibility,
  type SharePermission,
  type ShareableUser,
} from '../../../src/knowledge/shared';
import { formatDateTime } from '../../../src/ui/shared';
import { api, ApiError } from '../api';
import { toast } from '../toast';
import { UserShareForm } from './UserShareForm';

export interface ShareDialogProps {
  base: ApiBase;
  id: string;
  visibility: ItemVisibility;
  /** The reader's timezone, for expiry and last-opened times. */
  timeZone: string;
  /** A server-rendered button that opens it (a CSS selector); else the dialog has a Share button of its own. */
  trigger?: string;
  /** Called when the visibility changed (the caller may show it). */
  onVisibility?: (visibility: ItemVisibility) => void;
}

const failed = (e: unknown, fallback: string) => (e instanceof ApiError ? e.serverMessage : fallback);

/** Who a share is with, in words. */
const shareLabel = (s: ItemShare) => (s.user ? `${s.user.name} (${s.user.email})` : 'Anyone with the link');

/** The Share dialog: visibility, the shares with revoke, share with a user, create a link (its address shown once). */
export function ShareDialog({ base, id, visibility: initial, timeZone, trigger, onVisibility }: ShareDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [visibility, setVisibility] = useState(initial);
  const [shares, setShares] = useState<ItemShare[] | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const [expiresAt, setExpiresAt] = useState('');
  const [busy, setBusy] = useState(false);
  const path = `${base}/${id}`;

  async function load() {
    try {
      setShares(await api<ItemShare[]>('GET', `${path}/shares`));
    } catch (e) {
      toast('Error', failed(e, 'Failed to load the shares. Please try again.'), 'error');
    }
  }

  function show() {
    if (!dialog.current?.open) dialog.current?.showModal();
    setLink(null);
    void load();
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: show() is the latest render's; attach once per trigger
  useEffect(() => {
    if (!trigger) return;
    const button = document.querySelector(trigger);
    button?.addEventListener('click', show);
    show();
    return () => button?.removeEventListener('click', show);
  }, [trigger]);

  async function run(step: () => Promise<void>, fallback: string) {
    setBusy(true);
    try {
      await step();
    } catch (e) {
      toast('Error', failed(e, fallback), 'error');
    } finally {
      setBusy(false);
    }
  }

  // The choice shows at once (a radio that waits for the server looks unclicked); a refusal puts it back.
  const changeVisibility = (next: ItemVisibility) => {
    const before = visibility;
    setVisibility(next);
    return run(async () => {
      try {
        await api('PUT', `${path}/visibility`, { visibility: next });
      } catch (e) {
        setVisibility(before);
        throw e;
      }
      onVisibility?.(next);
      toast('Success', 'Visibility changed.');
    }, 'Failed to change the visibility.');
  };

  const shareWith = (user: ShareableUser, permission: SharePermission) =>
    run(async () => {
      await api('POST', `${path}/shares`, { userId: user.id, permission });
      toast('Success', `Shared with ${user.name}.`);
      await load();
    }, 'Failed to share the item.');

  const createLink = () =>
    run(async () => {
      const body = expiresAt
        ? { link: true, expiresAt: new Date(`${expiresAt}T23:59:59`).toISOString() }
        : { link: true };
      const share = await api<ItemShare>('POST', `${path}/shares`, body);
      setLink(share.url ?? null);
      await load();
    }, 'Failed to create the link.');

  const revoke = (share: ItemShare) =>
    run(async () => {
      await api('DELETE', `${path}/shares/${share.id}`);
      toast('Success', 'Share revoked.');
      await load();
    }, 'Failed to revoke the share.');

  async function copy() {
    if (!link) return;
    await navigator.clipboard?.writeText(link);
    toast('Copied', 'The link is on your clipboard.');
  }

  return (
    <>
      {!trigger && (
        <button type="button" className="btn btn--secondary btn--sm" onClick={show}>
          Share
        </button>
      )}
      <dialog ref={dialog} className="dialog share-dialog" aria-labelledby={`share-${id}-title`}>
        <header className="dialog__header">
          <h2 className="dialog__title" id={`share-${id}-title`}>
            Share
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={() => dialog.current?.close()}>
            ×
          </button>
        </header>
        <div className="dialog__body stack">
          <fieldset className="stack" disabled={busy}>
            <legend>Who can see it</legend>
            {(['everyone', 'restricted'] as const).map((v) => (
              <label key={v} className="checkbox">
                <input
                  type="radio"
                  name={`visibility-${id}`}
                  value={v}
                  checked={visibility === v}
                  onChange={() => void changeVisibility(v)}
                />
                {VISIBILITY_LABELS[v]}
              </label>
            ))}
          </fieldset>
          <section className="stack" aria-label="Shares">
            <h3 className="small">Shared with</h3>
            {shares === null && <p className="muted small">Loading…</p>}
            {shares?.length === 0 && <p className="muted small">Not shared with anyone yet.</p>}
            <ul className="share-list">
              {shares?.map((s) => (
                <li key={s.id} className="row">
                  <span>
                    {shareLabel(s)} · {s.permission === 'write' ? 'Can edit' : 'Can read'}
                    {s.expiresAt && (
                      <span className="muted small"> · expires {formatDateTime(s.expiresAt, timeZone)}</span>
                    )}
                    {!s.user && (
                      <span className="muted small">
                        {' '}
                        · {s.lastOpenedAt ? `last opened ${formatDateTime(s.lastOpenedAt, timeZone)}` : 'never opened'}
                      </span>
                    )}
                  </span>
                  <span className="spacer" />
                  <button
                    type="button"
                    className="btn btn--ghost btn--sm"
                    disabled={busy}
                    onClick={() => void revoke(s)}
                  >
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <UserShareForm busy={busy} onShare={(u, p) => void shareWith(u, p)} />
          <section className="stack" aria-label="Share link">
            <h3 className="small">Share link (read-only, no sign-in)</h3>
            <div className="row">
              <label className="small" htmlFor={`share-${id}-expiry`}>
                Expires (optional)
              </label>
              <input
                id={`share-${id}-expiry`}
                className="input"
                type="date"
                value={expiresAt}
                onChange={(e) => setExpiresAt(e.target.value)}
              />
              <button type="button" className="btn btn--secondary btn--sm" disabled={busy} onClick={createLink}>
                Create link
              </button>
            </div>
            {link && (
              <div className="row">
                <input className="input" readOnly value={link} aria-label="Share link" />
                <button type="button" className="btn btn--primary btn--sm" onClick={() => void copy()}>
                  Copy
                </button>
              </div>
            )}
            {link && <p className="muted small">Copy it now: it is shown only once.</p>}
          </section>
        </div>
      </dialog>
    </>
  );
}
