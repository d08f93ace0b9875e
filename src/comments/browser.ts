/**
 * Browser script of an item's comments (manifest.scripts.comments), no React: "Comment on selection" fills the new
 * comment's quote from the text selected in the item; typing `@` in a comment box offers accounts (the Share
 * dialog's person search, GET /api/users?q=) and inserts the chosen one's address; a link to a comment opens its
 * resolved (collapsed) thread. Listeners are delegated, so htmx swaps of the section need nothing more.
 */

const QUOTE_MAX = 1000;
let selected = '';

interface Person {
  id: string;
  name: string;
  email: string;
}

/** Shown only where there is an item's text to select (the read page, not the editor). */
function showSelectionButtons(): void {
  if (!document.querySelector('.doc__body')) return;
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-comment-on-selection]')) b.hidden = false;
}

document.addEventListener('selectionchange', () => {
  const sel = document.getSelection();
  const inBody = sel?.anchorNode?.parentElement?.closest('.doc__body');
  if (inBody && sel && !sel.isCollapsed) selected = sel.toString().trim().slice(0, QUOTE_MAX);
});

function quoteSelection(button: HTMLElement): void {
  const form = button.closest('form');
  const field = form?.querySelector<HTMLElement>('[data-quote-field]');
  if (!form || !field) return;
  if (!selected) {
    button.textContent = 'Select a passage of the text first';
    return;
  }
  form.querySelector<HTMLInputElement>('input[name=quote]')!.value = selected;
  field.querySelector('[data-quote-preview]')!.textContent = selected;
  field.hidden = false;
  form.querySelector('textarea')?.focus();
}

/** A link to a comment inside a resolved thread opens the thread. */
function openTargetThread(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  const details = target?.closest('details[data-thread]');
  if (!target || !(details instanceof HTMLDetailsElement)) return;
  details.open = true;
  target.scrollIntoView();
}

// ---- @mention suggestions ----
let list: HTMLUListElement | null = null;
let active = 0;
let people: Person[] = [];
let box: HTMLTextAreaElement | null = null;

/** The `@partial` being typed right before the caret, or null. */
function typedMention(t: HTMLTextAreaElement): { start: number; q: string } | null {
  const before = t.value.slice(0, t.selectionStart);
  const m = /(^|[\s(])@([^\s@]*)$/.exec(before);
  return m ? { start: before.length - m[2].length - 1, q: m[2] } : null;
}

function closeList(): void {
  list?.remove();
  list = null;
  people = [];
}

function render(): void {
  if (!box || !people.length) {
    closeList();
    return;
  }
  if (!list) {
    list = document.createElement('ul');
    list.className = 'mention-list';
    list.setAttribute('role', 'listbox');
    list.addEventListener('mousedown', (e) => {
      const li = (e.target as HTMLElement).closest<HTMLLIElement>('li[data-index]');
      if (!li) return;
      e.preventDefault();
      choose(Number(li.dataset.index));
    });
    box.insertAdjacentElement('afterend', list);
  }
  list.replaceChildren(
    ...people.map((p, i) => {
      const li = document.createElement('li');
      li.dataset.index = String(i);
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(i === active));
      li.textContent = `${p.name} <${p.email}>`;
      return li;
    }),
  );
}

function choose(i: number): void {
  const person = people[i];
  const at = box && typedMention(box);
  if (!box || !person || !at) {
    closeList();
    return;
  }
  const after = box.value.slice(box.selectionStart);
  box.value = `${box.value.slice(0, at.start)}@${person.email} ${after}`;
  const caret = at.start + person.email.length + 2;
  box.setSelectionRange(caret, caret);
  box.focus();
  closeList();
}

let asked = 0;
async function suggest(t: HTMLTextAreaElement): Promise<void> {
  const at = typedMention(t);
  if (!at) {
    closeList();
    return;
  }
  const mine = ++asked;
  const res = await fetch(`/api/users?q=${encodeURIComponent(at.q)}`, { headers: { Accept: 'application/json' } });
  if (mine !== asked || !res.ok) return;
  if (box !== t) closeList();
  box = t;
  people = ((await res.json()) as Person[]).slice(0, 8);
  active = 0;
  render();
}

document.addEventListener('input', (e) => {
  const t = e.target;
  if (t instanceof HTMLTextAreaElement && t.matches('[data-mention-input]')) void suggest(t);
});

document.addEventListener('keydown', (e) => {
  if (!list || e.target !== box) return;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    active = (active + (e.key === 'ArrowDown' ? 1 : people.length - 1)) % people.length;
    render();
  } else if (e.key === 'Enter' || e.key === 'Tab') choose(active);
  else if (e.key === 'Escape') closeList();
  else return;
  e.preventDefault();
});

document.addEventListener('focusout', (e) => {
  if (e.target === box) setTimeout(closeList, 150);
});

document.addEventListener('click', (e) => {
  const button = (e.target as HTMLElement).closest<HTMLElement>('[data-comment-on-selection]');
  if (button) quoteSelection(button);
});

document.addEventListener('htmx:load', showSelectionButtons);
window.addEventListener('hashchange', openTargetThread);
showSelectionButtons();
openTargetThread();
