import { Card, Skeleton } from '../../ui/components';
import { Dialog, DialogActions, DialogContent } from '../../ui/Dialog';
import { deleteQuestion } from '../shared';

/** The id of a list page's delete dialog: delete buttons open it and load its content into it (htmx). */
export const DELETE_DIALOG_ID = 'confirm-delete';
const TITLE = 'Delete item';

/**
 * The one delete dialog of a list page (or of an item's page), inside the swapped results: its content (DeleteConfirm) is loaded from
 * {path}/{id}/delete, and a delete swaps the results, which replaces (so closes) it.
 */
export function DeleteDialog() {
  return (
    <Dialog id={DELETE_DIALOG_ID} title={TITLE}>
      <Skeleton />
      <Skeleton />
    </Dialog>
  );
}

export interface DeleteConfirmProps {
  action: string;
  title: string;
  /** The list URL to return to (its filters are kept). */
  back: string;
  /** The reader may restore deleted items (the question then says so). */
  canRestore: boolean;
}

/**
 * The delete dialog's content: the question, then a POST. Opened on a list, htmx posts it and swaps in the list's new
 * results; opened on an item's own page (`inList` false), it posts plainly and the answer is the list.
 */
export function DeleteConfirm({
  action,
  title,
  back,
  canRestore,
  inList = true,
}: DeleteConfirmProps & { inList?: boolean }) {
  const swap = { 'hx-post': action, 'hx-target': '#kb-results', 'hx-indicator': '#kb-results' };
  const form = { method: 'post', action, ...(inList ? swap : {}) };
  return (
    <DialogContent id={DELETE_DIALOG_ID} title={TITLE} form={form} footer={<DialogActions submit="Delete" danger />}>
      <input type="hidden" name="back" value={back} />
      <p>{deleteQuestion(title, canRestore)}</p>
    </DialogContent>
  );
}

/** Without JavaScript: the same question on a page of its own, whose Cancel goes back to the list. */
export function DeleteConfirmPage({ action, title, back, canRestore }: DeleteConfirmProps) {
  return (
    <Card title={TITLE}>
      <form method="post" action={action}>
        <input type="hidden" name="back" value={back} />
        <div className="dialog__body">
          <p>{deleteQuestion(title, canRestore)}</p>
        </div>
        <footer className="dialog__footer">
          <a className="btn btn--secondary" href={back}>
            Cancel
          </a>
          <button type="submit" className="btn btn--danger">
            Delete
          </button>
        </footer>
      </form>
    </Card>
  );
}
