import { useEffect, type RefObject } from 'react';

/**
 * Escape or a click outside closes an open <details> dropdown. Escape gives the focus back to its trigger
 * (the summary); so does a click on nothing, while a click on another control keeps the focus it took.
 */
export function useDismiss(ref: RefObject<HTMLDetailsElement | null>, open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const trigger = () => ref.current?.querySelector<HTMLElement>(':scope > summary');
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      trigger()?.focus();
    };
    const onClick = (event: MouseEvent) => {
      const menu = ref.current;
      if (!menu || menu.contains(event.target as Node)) return;
      close();
      const focused = document.activeElement;
      if (!focused || focused === document.body || menu.contains(focused)) trigger()?.focus();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [ref, open, close]);
}
