import { createElement, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot, createRoot } from 'react-dom/client';

/**
 * Marks the island `data-hydrated` once React has committed it (its own effects have run), not when
 * hydrateRoot returns: hydration is scheduled work, and until it commits the inputs are not React's yet,
 * so what is typed then reaches no state (and tests waiting for the mark would race it).
 */
function MarkHydrated({ el, children }: { el: HTMLElement; children?: ReactNode }) {
  useEffect(() => el.setAttribute('data-hydrated', ''), [el]);
  return children;
}

/**
 * Mounts one island (bundled into every island entry, so React loads only with islands).
 * Returns its unmount function.
 */
export function mountIsland<P extends object>(
  component: ComponentType<P>,
  el: HTMLElement,
  props: P,
  prefix: string,
  clientOnly: boolean,
) {
  const element = createElement(MarkHydrated, { el }, createElement(component, props));
  const root = clientOnly
    ? createRoot(el, { identifierPrefix: prefix })
    : hydrateRoot(el, element, {
        identifierPrefix: prefix,
        onRecoverableError: (error) => console.error('island hydration', error),
      });
  if (clientOnly) root.render(element);
  return () => root.unmount();
}
