import { createElement, type ComponentType } from 'react';
import { hydrateRoot, createRoot } from 'react-dom/client';

/**
 * Mounts one island (bundled into every island entry, so React loads only with islands).
 * Returns its unmount function.
 */
export function mountIsland(component: ComponentType<any>, el: HTMLElement, props: object, prefix: string, clientOnly: boolean) {
  const element = createElement(component, props);
  const root = clientOnly
    ? createRoot(el, { identifierPrefix: prefix })
    : hydrateRoot(el, element, {
        identifierPrefix: prefix,
        onRecoverableError: (error) => console.error('island hydration', error),
      });
  if (clientOnly) root.render(element);
  return () => root.unmount();
}
