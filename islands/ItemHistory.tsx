import type { ApiBase } from '../src/knowledge/shared';
import { VersionHistory } from './_lib/knowledge/VersionHistory';

export interface ItemHistoryProps {
  base: ApiBase;
  id: string;
  currentVersion: number;
  /** The reader may not edit the item: no Restore. */
  readOnly?: boolean;
}

/** The read page's Version History: loaded by the first click on its button; a restore reloads the page. */
export default function ItemHistory({ base, id, currentVersion, readOnly }: ItemHistoryProps) {
  return (
    <VersionHistory
      base={base}
      id={id}
      currentVersion={currentVersion}
      readOnly={readOnly}
      trigger={`[data-island-trigger="ItemHistory"]`}
      onRestored={() => window.location.reload()}
    />
  );
}
