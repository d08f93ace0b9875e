import type { ComponentType } from 'react';
import { preinit, preloadModule } from 'react-dom';
import { renderToString } from 'react-dom/server';
import { islands, type IslandName, type IslandProps } from '../../islands';
import type { Assets } from './assets';
import { useRequest } from './request-context';

export type IslandLoad = 'eager' | 'visible' | 'idle' | 'interaction';

let counter = 0;

interface RenderIslandOptions<P> {
  name: string;
  component: ComponentType<P>;
  props: P;
  assets: Assets;
  load?: IslandLoad;
  /** Render nothing on the server (for islands that only exist in the browser, e.g. a lazily opened panel). */
  clientOnly?: boolean;
}

/**
 * Server side of an island: renders the component as its own React root (own identifierPrefix so
 * useId matches on hydration) inside <app-island>, and preloads its chunk unless it loads lazily.
 */
export function IslandRoot<P extends object>({
  name,
  component: Component,
  props,
  assets,
  load = 'eager',
  clientOnly,
}: RenderIslandOptions<P>) {
  const entry = assets.islands[name];
  if (!entry) throw new Error(`Island ${name} is not in the build manifest: run "npm run build".`);
  counter = (counter + 1) % 1e9;
  const prefix = `i${counter.toString(36)}-`;
  const html = clientOnly ? '' : renderToString(<Component {...props} />, { identifierPrefix: prefix });
  for (const href of entry.css ?? []) preinit(href, { as: 'style', precedence: 'default' });
  if (load === 'eager') {
    preloadModule(entry.src, { as: 'script' });
    for (const chunk of entry.imports) preloadModule(chunk, { as: 'script' });
  }
  return (
    <app-island
      data-name={name}
      data-src={entry.src}
      data-prefix={prefix}
      data-props={JSON.stringify(props)}
      data-load={load === 'eager' ? undefined : load}
      data-client-only={clientOnly ? '' : undefined}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own renderToString output, escaped
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** <Island name="ServerTable" props={…}/>: a registered island with typed, JSON-only props. */
export function Island<N extends IslandName>(props: {
  name: N;
  props: IslandProps<N>;
  load?: IslandLoad;
  clientOnly?: boolean;
}) {
  const c = useRequest();
  return (
    <IslandRoot
      name={props.name}
      component={islands[props.name] as ComponentType<IslandProps<N>>}
      props={props.props}
      assets={c.var.deps.assets}
      load={props.load}
      clientOnly={props.clientOnly}
    />
  );
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'app-island': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}
