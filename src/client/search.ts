/**
 * The header search box (a combobox): htmx fetches the list 500 ms after typing; this file adds the
 * messages, opening and closing, arrow keys (aria-activedescendant / aria-selected), Enter opens the
 * active or first result, Escape clears and closes; "/" (outside a field) or Ctrl/Cmd+K focuses it.
 * Without JavaScript the box is a GET form to /search.
 */
type Htmx = { trigger(el: Element, event: string): void };

export function initGlobalSearch(): void {
  const input = document.getElementById('global-search-input') as HTMLInputElement | null;
  const list = document.getElementById('global-search-results');
  if (!input || !list) return;
  let active = -1;
  let openFirstWhenLoaded = false;

  const options = () => [...list.querySelectorAll<HTMLAnchorElement>('[role=option]')];
  const loadedQuery = () => list.querySelector<HTMLElement>('[data-search-query]')?.dataset.searchQuery;
  const isPending = () => loadedQuery() !== input.value;

  const setActive = (index: number) => {
    const all = options();
    active = Math.max(-1, Math.min(index, all.length - 1));
    all.forEach((o, i) => {
      o.setAttribute('aria-selected', String(i === active));
    });
    const current = all[active];
    if (current) {
      input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  };
  const setOpen = (open: boolean) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) setActive(-1);
  };
  const showMessage = (text: string) => {
    const p = document.createElement('p');
    p.className = 'search-results__empty';
    p.textContent = text;
    list.replaceChildren(p);
    setActive(-1);
  };
  const go = (option: HTMLAnchorElement) => {
    input.value = '';
    setOpen(false);
    window.location.assign(option.href);
  };
  const clear = () => {
    input.value = '';
    list.replaceChildren();
    openFirstWhenLoaded = false;
    setOpen(false);
  };

  input.addEventListener('focus', () => {
    if (!input.value.trim()) showMessage('Start typing to search...');
    setOpen(true);
  });
  input.addEventListener('input', () => {
    if (!input.value.trim()) return clear();
    showMessage('Searching...');
    setOpen(true);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (list.hidden && input.value.trim()) setOpen(true);
      const count = options().length;
      if (count) setActive(event.key === 'ArrowDown' ? (active + 1) % count : active <= 0 ? count - 1 : active - 1);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      clear();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (!input.value.trim()) return;
      if (isPending()) {
        openFirstWhenLoaded = true;
        (window as unknown as { htmx?: Htmx }).htmx?.trigger(input, 'search');
        return;
      }
      const chosen = options()[active] ?? options()[0];
      if (chosen) go(chosen);
    }
  });
  list.addEventListener('htmx:afterSwap', () => {
    if (!input.value.trim()) return setOpen(false);
    setOpen(document.activeElement === input || openFirstWhenLoaded);
    setActive(-1);
    if (openFirstWhenLoaded && !isPending()) {
      openFirstWhenLoaded = false;
      const first = options()[0];
      if (first) go(first);
    }
  });
  list.addEventListener('click', (event) => {
    const option = (event.target as Element).closest<HTMLAnchorElement>('[role=option]');
    if (option) {
      event.preventDefault();
      go(option);
    }
  });
  document.addEventListener('click', (event) => {
    if (!(event.target as Element).closest('.global-search')) setOpen(false);
  });
  input.form?.addEventListener('focusout', (event) => {
    const next = (event as FocusEvent).relatedTarget as Node | null;
    if (!next || !input.form!.contains(next)) setOpen(false);
  });
  document.addEventListener('keydown', (event) => {
    if (!isSearchShortcut(event) || document.querySelector('dialog:modal')) return;
    event.preventDefault();
    input.focus();
    input.select();
  });
}

const isRichText = (el: Element | null) => !!el && (el as HTMLElement).isContentEditable;
/** True for something typed into: a "/" there is text, not a shortcut. */
const isTyping = (el: Element | null) => !!el && (el.matches('input, textarea, select') || isRichText(el));

/** "/" outside a field, or Ctrl+K / Cmd+K anywhere but the rich editor (a link there), goes to the search box. */
function isSearchShortcut(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing || event.altKey) return false;
  const target = document.activeElement;
  if (event.ctrlKey || event.metaKey) return event.key.toLowerCase() === 'k' && !isRichText(target);
  return event.key === '/' && !isTyping(target);
}
