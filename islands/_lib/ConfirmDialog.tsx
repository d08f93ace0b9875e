import { useEffect, useRef, type FormEvent } from 'react';
import { Icon } from './icons';

interface Props {
  id: string;
  title: string;
  question: string;
  /** The submit button's label (red: the step cannot be undone). */
  submit?: string;
  onConfirm(): void;
  /** Called once the dialog has closed: confirmed, cancelled, Escape or the close button. */
  onClose(): void;
}

/**
 * The island's confirm-delete dialog, with the markup and classes of the server-rendered ConfirmDialog
 * (src/ui/Dialog.tsx). A native modal <dialog>: it takes the focus, and Escape closes it.
 */
export function ConfirmDialog({ id, title, question, submit = 'Delete', onConfirm, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  function confirm(e: FormEvent) {
    e.preventDefault();
    ref.current?.close();
    onConfirm();
  }

  const close = () => ref.current?.close();
  return (
    <dialog ref={ref} id={id} className="dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form method="post" onSubmit={confirm}>
        <header className="dialog__header">
          <h2 className="dialog__title" id={`${id}-title`}>
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={close}>
            <Icon name="x" />
          </button>
        </header>
        <div className="dialog__body">
          <p>{question}</p>
        </div>
        <footer className="dialog__footer">
          <button type="button" className="btn btn--secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn btn--danger">
            {submit}
          </button>
        </footer>
      </form>
    </dialog>
  );
}
