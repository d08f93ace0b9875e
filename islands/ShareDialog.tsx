import type { ApiBase, ItemVisibility } from '../src/knowledge/shared';
import { ShareDialog as Dialog } from './_lib/knowledge/ShareDialog';

export interface ShareDialogProps {
  base: ApiBase;
  id: string;
  visibility: ItemVisibility;
  timeZone: string;
}

/** The read page's Share dialog: loaded by the first click on its button; a visibility change reloads the page. */
export default function ShareDialog(props: ShareDialogProps) {
  return (
    <Dialog
      {...props}
      trigger={`[data-island-trigger="ShareDialog"]`}
      onVisibility={() => {
        // The page shows the visibility: it is read again once the dialog closes.
        document.querySelector('dialog.share-dialog')?.addEventListener('close', () => window.location.reload(), {
          once: true,
        });
      }}
    />
  );
}
