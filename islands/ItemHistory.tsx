import type { ApiBase } from '../src/knowledge/shared';
import { VersionHistory } from './_lib/knowledge/VersionHistory';

export interface ItemHistoryProps {
  base: ApiBase;
  id: string;
  currentVersion: number;
}

/** The read page's Version History: loaded by the first click on its button; a restore reloads the page. */
export default function ItemHistory({ base, id, currentVersion }: ItemHistoryProps) {
  return (
    <VersionHistory
      base={base}
      id={id}
      currentVersion={currentVersion}
      trigger={`[data-island-trigger="ItemHistory"]`}
      onRestored={() => window.location.reload()}
    />
  );
}
