import { DialogHeader, Skeleton } from '../../ui/components';

/** The one confirmation dialog of a list page; its body is loaded by htmx from {path}/{id}/delete. */
export function DeleteDialog({ oob }: { oob?: boolean }) {
  return (
    <dialog
      id="confirm-delete"
      className="dialog"
      aria-labelledby="confirm-delete-title"
      hx-swap-oob={oob ? 'true' : undefined}
    >
      <DialogHeader id="confirm-delete" title="Delete item" />
      <div id="confirm-delete-body">
        <div className="dialog__body">
          <Skeleton />
          <Skeleton />
        </div>
      </div>
    </dialog>
  );
}

export interface DeleteConfirmProps {
  action: string;
  title: string;
  /** The list URL to return to (its filters are kept). */
  back: string;
  /** Inside the dialog (htmx) or on its own page (no JavaScript). */
  inDialog: boolean;
}

/** Spec: Are you sure you want to delete "{title}"? This action cannot be undone. */
export function DeleteConfirm({ action, title, back, inDialog }: DeleteConfirmProps) {
  return (
    <form
      method="post"
      action={action}
      hx-post={inDialog ? action : undefined}
      hx-target={inDialog ? '#kb-results' : undefined}
      hx-indicator="#kb-results"
    >
      <input type="hidden" name="back" value={back} />
      <div className="dialog__body">
        <p>{`Are you sure you want to delete "${title}"? This action cannot be undone.`}</p>
      </div>
      <footer className="dialog__footer">
        {inDialog ? (
          <button type="button" className="btn btn--secondary" data-close-dialog>
            Cancel
          </button>
        ) : (
          <a className="btn btn--secondary" href={back}>
            Cancel
          </a>
        )}
        <button type="submit" className="btn btn--danger">
          Delete
        </button>
      </footer>
    </form>
  );
}
