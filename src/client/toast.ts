export interface ToastDetail {
  title: string;
  text?: string;
  variant?: 'success' | 'error' | 'info';
}

const TOAST_MS = 5000;

/** Lifts the region into the top layer (a manual popover) so a toast is not dimmed behind an open modal dialog. */
function raise(region: HTMLElement): void {
  if (typeof region.showPopover !== 'function') return;
  region.popover = 'manual';
  if (region.matches(':popover-open')) region.hidePopover();
  region.showPopover();
}

/** A toast in the region leaves after 5 s or on click. */
function present(region: HTMLElement, toast: HTMLElement): void {
  toast.addEventListener('click', () => toast.remove());
  raise(region);
  setTimeout(() => toast.remove(), TOAST_MS);
}

/** Shows one toast at a time (spec: at most 1 visible). */
export function showToast({ title, text, variant = 'info' }: ToastDetail): void {
  const region = document.getElementById('toasts');
  if (!region) return;
  region.replaceChildren();
  const toast = document.createElement('div');
  toast.className = `toast toast--${variant}`;
  toast.setAttribute('role', variant === 'error' ? 'alert' : 'status');
  const strong = document.createElement('div');
  strong.className = 'toast__title';
  strong.textContent = title;
  toast.append(strong);
  if (text) {
    const body = document.createElement('div');
    body.className = 'toast__text';
    body.textContent = text;
    toast.append(body);
  }
  region.append(toast);
  present(region, toast);
}

/** The toast the server rendered into the page (a flash after a redirect, a refused form) goes like any other. */
export function showPageToast(): void {
  const region = document.getElementById('toasts');
  const toast = region?.querySelector<HTMLElement>('.toast');
  if (region && toast) present(region, toast);
}
