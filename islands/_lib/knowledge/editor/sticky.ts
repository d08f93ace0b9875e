import { useEffect, type RefObject } from 'react';

/**
 * Keeps the editor's sticky Save bar just below the page header, which is sticky too and whose height changes with
 * the viewport (it wraps on phones): the header's height is set as --editor-bar-top on the editor.
 */
export function useBelowPageHeader(editor: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const header = document.querySelector<HTMLElement>('.page-header');
    const el = editor.current;
    if (!header || !el || typeof ResizeObserver === 'undefined') return;
    const place = () => {
      const sticky = ['sticky', 'fixed'].includes(getComputedStyle(header).position);
      el.style.setProperty('--editor-bar-top', `${sticky ? header.getBoundingClientRect().height : 0}px`);
    };
    const observer = new ResizeObserver(place);
    observer.observe(header);
    place();
    return () => observer.disconnect();
  }, [editor]);
}
