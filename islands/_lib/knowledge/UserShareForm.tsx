import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SharePermission, ShareableUser } from '../../../src/knowledge/shared';
import { api } from '../api';

interface Props {
  busy: boolean;
  onShare: (user: ShareableUser, permission: SharePermission) => void;
}

/** Share with a person: find them by name or e-mail (GET /api/users?q=), choose read or write, Share. */
export function UserShareForm({ busy, onShare }: Props) {
  const uid = useId();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<ShareableUser[]>([]);
  const [userId, setUserId] = useState('');
  const [permission, setPermission] = useState<SharePermission>('read');

  useEffect(() => {
    if (q.trim().length < 2) return setFound([]);
    let live = true;
    const timer = setTimeout(() => {
      api<ShareableUser[]>('GET', `/api/users?q=${encodeURIComponent(q.trim())}`)
        .then((users) => {
          if (!live) return;
          setFound(users);
          setUserId(users[0]?.id ?? '');
        })
        .catch(() => live && setFound([]));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const user = found.find((u) => u.id === userId);
    if (user) onShare(user, permission);
  }

  return (
    <form className="stack" aria-label="Share with a person" onSubmit={submit}>
      <h3 className="small">Share with a person</h3>
      <label className="small" htmlFor={`${uid}-q`}>
        Name or e-mail
      </label>
      <input
        id={`${uid}-q`}
        className="input"
        type="search"
        value={q}
        autoComplete="off"
        onChange={(e) => setQ(e.target.value)}
      />
      <div className="row">
        <label className="visually-hidden" htmlFor={`${uid}-user`}>
          Person
        </label>
        <select
          id={`${uid}-user`}
          className="select"
          value={userId}
          disabled={!found.length}
          onChange={(e) => setUserId(e.target.value)}
        >
          {!found.length && <option value="">No one found</option>}
          {found.map((u) => (
            <option key={u.id} value={u.id}>
              {`${u.name} (${u.email})`}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor={`${uid}-permission`}>
          Permission
        </label>
        <select
          id={`${uid}-permission`}
          className="select"
          value={permission}
          onChange={(e) => setPermission(e.target.value as SharePermission)}
        >
          <option value="read">Can read</option>
          <option value="write">Can edit</option>
        </select>
        <button type="submit" className="btn btn--secondary btn--sm" disabled={busy || !userId}>
          Share
        </button>
      </div>
    </form>
  );
}
