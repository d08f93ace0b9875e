export interface ToastDetail {
  title: string;
  text?: string;
  variant?: 'success' | 'error' | 'info';
}

/** Lifts the region into the top layer (a manual popover) so a toast is not dimmed behind an open modal dialog. */
function raise(region: HTMLElement): void {
  if (typeof region.showPopover !== 'function') return;
  region.popover = 'manual';
  if (region.matches(':popover-open')) region.hidePopover();
  region.showPopover();
}

/** Shows one toast at a time (spec: at most 1 visible); it leaves after 5 s or on click. */
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
  toast.addEventListener('click', () => toast.remove());
  region.append(toast);
  raise(region);
  setTimeout(() => toast.remove(), 5000);
}
