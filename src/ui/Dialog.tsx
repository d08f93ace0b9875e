import type { FormHTMLAttributes, ReactNode } from 'react';
import { Icon } from './icons';

/**
 * The server-rendered dialog: a native <dialog> opened by any element with data-open-dialog={id} (or on load),
 * closed by data-close-dialog (src/client/shell.ts). A form inside it posts with htmx or plainly without JS.
 */

/** Attributes of a dialog's form: the HTML ones plus htmx's hx-* and data-* (passed through as they are). */
export type DialogFormProps = FormHTMLAttributes<HTMLFormElement> & {
  [name: `hx-${string}` | `data-${string}`]: string | undefined;
};

/** A dialog's title (labelled by `${id}-title`) and its close button. */
export function DialogHeader({ id, title }: { id: string; title: string }) {
  return (
    <header className="dialog__header">
      <h2 className="dialog__title" id={`${id}-title`}>
        {title}
      </h2>
      <button type="button" className="icon-button" data-close-dialog aria-label="Close">
        <Icon name="x" />
      </button>
    </header>
  );
}

export interface DialogContentProps {
  id: string;
  title: string;
  /** Wraps header, body and footer in this form: the part htmx posts (and swaps, to show errors). */
  form?: DialogFormProps;
  /** Classes added to the body's `dialog__body`. */
  bodyClassName?: string;
  footer?: ReactNode;
  children: ReactNode;
}

/** Header, body and footer of a dialog, inside its form when one is given; a fragment may answer with it alone. */
export function DialogContent({ id, title, form, bodyClassName, footer, children }: DialogContentProps) {
  const content = (
    <>
      <DialogHeader id={id} title={title} />
      <div className={bodyClassName ? `dialog__body ${bodyClassName}` : 'dialog__body'}>{children}</div>
      {footer && <footer className="dialog__footer">{footer}</footer>}
    </>
  );
  return form ? <form {...form}>{content}</form> : content;
}

/** A native <dialog>; `openOnLoad` shows it when the page loads (a form re-rendered with errors). */
export function Dialog(props: DialogContentProps & { wide?: boolean; openOnLoad?: boolean }) {
  const { wide, openOnLoad, ...content } = props;
  return (
    <dialog
      id={props.id}
      className={`dialog${wide ? ' dialog--wide' : ''}`}
      aria-labelledby={`${props.id}-title`}
      data-open-on-load={openOnLoad ? '' : undefined}
    >
      <DialogContent {...content} />
    </dialog>
  );
}

/** A dialog's buttons: Cancel (closes it) and the submit button, red when the step is destructive. */
export function DialogActions({ submit, danger }: { submit: string; danger?: boolean }) {
  return (
    <>
      <button type="button" className="btn btn--secondary" data-close-dialog>
        Cancel
      </button>
      <button type="submit" className={`btn ${danger ? 'btn--danger' : 'btn--primary'}`}>
        {submit}
      </button>
    </>
  );
}

export interface ConfirmDialogProps {
  id: string;
  title: string;
  /** "Are you sure you want to delete …? This action cannot be undone." */
  question: string;
  /** Where the form POSTs (with htmx too, unless hx says otherwise). */
  action: string;
  /** The submit button's label: Delete unless given. */
  submit?: string;
  /** Red submit button (default); false for a step that is not destructive (Approve). */
  danger?: boolean;
  /** More attributes of the form: hx-target, hx-swap, data-error-toast … */
  form?: DialogFormProps;
}

/**
 * The one way to confirm a delete (or another step that cannot be undone): a question in a dialog whose form
 * POSTs to `action`, with htmx when the page has it and plainly (303 back) without JavaScript.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { id, title, question, action, submit = 'Delete', danger = true, form } = props;
  return (
    <Dialog
      id={id}
      title={title}
      form={{ id: form?.id, method: 'post', action, 'hx-post': action, ...form }}
      footer={<DialogActions submit={submit} danger={danger} />}
    >
      <p>{question}</p>
    </Dialog>
  );
}
