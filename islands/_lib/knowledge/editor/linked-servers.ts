import { useState } from 'react';
import type { ServerSummary } from '../../../../src/runbooks/shared';

const idsOf = (servers: ServerSummary[]) => servers.map((s) => s.id);

/**
 * The editor's linked servers (picker and suggestions): `serverIds()` is what Save sends, only when the set was
 * changed here (a new item: any servers at all), so a save does not undo links made elsewhere meanwhile.
 */
export function useLinkedServers(initial: ServerSummary[], isNew: boolean, onChange: () => void) {
  const [servers, setServers] = useState(initial);
  const [first] = useState(initial);
  const start = idsOf(first).join(',');
  const set = (next: ServerSummary[]) => {
    onChange();
    setServers(next);
  };
  const link = (more: ServerSummary[]) => set([...servers, ...more.filter((s) => !servers.some((x) => x.id === s.id))]);
  const serverIds = (): string[] | undefined => {
    const now = idsOf(servers);
    if (isNew) return now.length ? now : undefined;
    return now.join(',') === start ? undefined : now;
  };
  /** What a draft keeps: the servers only when they were changed here (else the page's fresh ones stand). */
  const draftServers = () => (serverIds() ? servers : undefined);
  /** Back to the servers the editor opened with (Discard draft). */
  const reset = () => setServers(first);
  return { servers, set, link, reset, serverIds, draftServers };
}
