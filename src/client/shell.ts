/** The signed-in shell's interactions: sidebar collapse (remembered in a cookie), mobile menu, menus, dialogs. */
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
    } else if (target.closest('[data-menu-close]') && shell) {
      setMenu(shell, false);
      shell.querySelector<HTMLElement>('[data-menu-toggle]')?.focus();
    } else if (target.closest('.sidebar a') && shell) {
      setMenu(shell, false);
    }
    const opener = target.closest<HTMLElement>('[data-open-dialog]');
    if (opener) document.querySelector<HTMLDialogElement>(`#${opener.dataset.openDialog}`)?.showModal();
    if (target.closest('[data-close-dialog]')) target.closest('dialog')?.close();
  });
  document.addEventListener('keydown', (event) => {
    const shell = document.querySelector<HTMLElement>('.shell[data-menu-open]');
    if (event.key === 'Escape' && shell) {
      setMenu(shell, false);
      shell.querySelector<HTMLElement>('[data-menu-toggle]')?.focus();
    }
  });
  initDropdowns();
  // Deep-link parameters are removed from the address after use: the server names the clean URL.
  const clean = document.querySelector<HTMLElement>('[data-replace-url]');
  if (clean) history.replaceState(history.state, '', clean.dataset.replaceUrl);
  // Controls that only work with JavaScript are rendered hidden (a page without it shows no dead button).
  for (const el of document.querySelectorAll<HTMLElement>('[data-js-only]')) el.hidden = false;
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

/** The server-rendered <details class="menu"> dropdowns that are open (islands manage their own). */
const openDropdowns = () =>
  [...document.querySelectorAll<HTMLDetailsElement>('details.menu[open]')].filter((m) => !m.closest('app-island'));

/** Closes a dropdown; its trigger (the summary) takes the focus back when asked. */
function closeDropdown(menu: HTMLDetailsElement, focusTrigger: boolean): void {
  menu.open = false;
  if (focusTrigger) menu.querySelector<HTMLElement>(':scope > summary')?.focus();
}

/** Escape or a click outside closes an open dropdown menu and gives the focus back to its trigger. */
function initDropdowns(): void {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of openDropdowns()) closeDropdown(menu, true);
  });
  document.addEventListener('click', (event) => {
    const target = event.target as Node;
    for (const menu of openDropdowns()) {
      if (menu.contains(target)) continue;
      // A click on another control keeps the focus it took; a click on nothing gives it back to the trigger.
      closeDropdown(menu, !document.activeElement || document.activeElement === document.body);
    }
  });
}
