/**
 * Browser script linked only by a document's read page (built as manifest.scripts.reading): wires the reading aids
 * of src/markdown/document.ts. Code blocks' copy buttons are shown and copy their code; a heading's # anchor
 * copies the section's link; the Servers panel, when there is one, stays fresh (servers-panel.ts). No React; toasts
 * go through boot.js's showToast event.
 */
import { copyText } from '../../islands/_lib/chat/clipboard';
import { toast } from '../../islands/_lib/toast';
import { watchServersPanel } from './servers-panel';

const COPIED_FOR_MS = 2000;
const resets = new WeakMap<HTMLButtonElement, ReturnType<typeof setTimeout>>();

/** The buttons are rendered hidden, so a page without JavaScript shows none that do nothing. */
function showCopyButtons(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-copy-code]')) button.hidden = false;
}

async function copyCode(button: HTMLButtonElement): Promise<void> {
  // Without the block's last newline: pasted into a terminal, the command must not run by itself.
  const code = (button.closest('.code-block')?.querySelector('pre')?.textContent ?? '').replace(/\n$/, '');
  try {
    await copyText(code);
  } catch {
    toast('Could not copy the code', 'Select it and copy it by hand.', 'error');
    return;
  }
  button.textContent = 'Copied';
  clearTimeout(resets.get(button));
  resets.set(
    button,
    setTimeout(() => {
      button.textContent = 'Copy';
    }, COPIED_FOR_MS),
  );
}

/** The fragment goes into the address without the browser's jump; then the heading scrolls into view. */
async function copySectionLink(anchor: HTMLAnchorElement): Promise<void> {
  history.replaceState(history.state, '', anchor.href);
  anchor.closest('[id]')?.scrollIntoView();
  try {
    await copyText(anchor.href);
    toast('Link copied');
  } catch {
    toast('Could not copy the link', anchor.href, 'error');
  }
}

const withModifier = (e: MouseEvent) => e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;

document.addEventListener('click', (event) => {
  if (!(event.target instanceof Element)) return;
  const button = event.target.closest<HTMLButtonElement>('[data-copy-code]');
  if (button) {
    void copyCode(button);
    return;
  }
  const anchor = event.target.closest<HTMLAnchorElement>('a.heading-anchor');
  if (!anchor || withModifier(event)) return;
  event.preventDefault();
  void copySectionLink(anchor);
});

showCopyButtons(document);
document.addEventListener('htmx:load', (event) => showCopyButtons(event.target as Element));
watchServersPanel();
