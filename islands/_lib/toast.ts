/** Islands show toasts through the same event boot.js listens to (one toast at a time). */
export function toast(title: string, text?: string, variant: 'success' | 'error' | 'info' = 'success'): void {
  document.body.dispatchEvent(new CustomEvent('showToast', { detail: { title, text, variant } }));
}
