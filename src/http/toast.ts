import type { Context } from 'hono';

/** Asks boot.js to show a toast after an htmx response (HX-Trigger: showToast). */
export function triggerToast(
  c: Context,
  title: string,
  text?: string,
  variant: 'success' | 'error' | 'info' = 'success',
) {
  c.header('HX-Trigger', JSON.stringify({ showToast: { title, text, variant } }));
}
