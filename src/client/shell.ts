/** The signed-in shell's interactions: sidebar collapse (remembered in a cookie), mobile menu, dialogs. */
export function initShell(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element;
    const shell = document.querySelector<HTMLElement>('.shell');
    if (target.closest('[data-sidebar-toggle]') && shell) {
      const collapsed = shell.toggleAttribute('data-collapsed');
      // biome-ignore lint/suspicious/noDocumentCookie: server renders the sidebar from it; no Cookie Store API everywhere
      document.cookie = `sidebar=${collapsed ? 'collapsed' : 'expanded'}; path=/; max-age=31536000; samesite=lax`;
    } else if (target.closest('[data-menu-toggle]') && shell) {
      setMenu(shell, !shell.hasAttribute('data-menu-open'));
    } else if ((target.closest('[data-menu-close]') || target.closest('.sidebar a')) && shell) {
      setMenu(shell, false);
    }
    const opener = target.closest<HTMLElement>('[data-open-dialog]');
    if (opener) document.querySelector<HTMLDialogElement>(`#${opener.dataset.openDialog}`)?.showModal();
    if (target.closest('[data-close-dialog]')) target.closest('dialog')?.close();
  });
  document.addEventListener('keydown', (event) => {
    const shell = document.querySelector<HTMLElement>('.shell[data-menu-open]');
    if (event.key === 'Escape' && shell) setMenu(shell, false);
  });
  // Deep-link parameters are removed from the address after use: the server names the clean URL.
  const clean = document.querySelector<HTMLElement>('[data-replace-url]');
  if (clean) history.replaceState(history.state, '', clean.dataset.replaceUrl);
  // Dialogs rendered open by the server (e.g. a deep link or a 422 form) become modal.
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog[data-open-on-load]')) {
    if (!dialog.open) dialog.showModal();
  }
}

function setMenu(shell: HTMLElement, open: boolean): void {
  shell.toggleAttribute('data-menu-open', open);
  const overlay = shell.querySelector<HTMLElement>('.sidebar-overlay');
  if (overlay) overlay.hidden = !open;
  shell.querySelector('[data-menu-toggle]')?.setAttribute('aria-expanded', String(open));
}
