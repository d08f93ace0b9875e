/** Show/hide password toggles: any [data-password-toggle] button flips the password input beside it. */
function toggle(button: HTMLButtonElement): void {
  const input = button.parentElement?.querySelector<HTMLInputElement>(
    'input[type="password"], input[data-password-visible]',
  );
  if (!input) return;
  const show = input.type === 'password';
  input.type = show ? 'text' : 'password';
  input.toggleAttribute('data-password-visible', show);
  button.setAttribute('aria-pressed', String(show));
  button.setAttribute('aria-label', show ? 'Hide password' : 'Show password');
  button.classList.toggle('is-on', show);
}

/** Reveals the toggles (hidden in the HTML, since they need this script) on first load and after htmx swaps. */
function reveal(root: ParentNode): void {
  for (const b of root.querySelectorAll<HTMLButtonElement>('[data-password-toggle][hidden]')) b.hidden = false;
}

export function initForms(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('[data-password-toggle]');
    if (button) toggle(button);
  });
  reveal(document);
  document.addEventListener('htmx:load', (e) => reveal(e.target as ParentNode));
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', initForms);
else initForms();
