import type { ReactNode } from 'react';
import type { Toast } from '../http/flash';
import type { Assets } from './assets';

export interface DocumentProps {
  title: string;
  assets: Assets;
  /** light | dark forces a theme; system (default) follows the OS. Set on the server so nothing flashes. */
  theme?: 'light' | 'dark' | 'system';
  /** Settings › Compact view: `compact` on <html> makes app.css denser; set on the server so nothing jumps. */
  compact?: boolean;
  bodyClass?: string;
  /** A toast shown on load: in the page, so it reads without JavaScript; boot.js then lets it go like any other. */
  toast?: Toast;
  /**
   * The offline pack's worker (src/offline/): the signed-in user's id registers it (and empties a pack of another
   * user), `off` tells it to empty the pack (signed-out pages); absent, boot.js leaves it alone.
   */
  offlinePack?: string;
  children: ReactNode;
}

/** htmx settings: no eval (CSP), no inline indicator styles (CSP; app.css has them). */
const htmxConfig = JSON.stringify({
  allowEval: false,
  includeIndicatorStyles: false,
  historyCacheSize: 0,
  defaultSwapStyle: 'innerHTML',
});

/** The same markup as src/client/toast.ts builds. */
function ToastNote({ title, text, variant }: Toast) {
  return (
    <div className={`toast toast--${variant}`} role={variant === 'error' ? 'alert' : 'status'}>
      <div className="toast__title">{title}</div>
      {text && <div className="toast__text">{text}</div>}
    </div>
  );
}

/** The HTML document around every page: our stylesheet, htmx and boot.js; no inline script. */
export function Document(props: DocumentProps) {
  const { title, assets, theme = 'system', compact, bodyClass, toast, offlinePack, children } = props;
  return (
    <html lang="en" data-theme={theme === 'system' ? undefined : theme} className={compact ? 'compact' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="htmx-config" content={htmxConfig} />
        <title>{title === 'Ops Hub' ? title : `${title} · Ops Hub`}</title>
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        {offlinePack && <meta name="offline-pack" content={offlinePack} />}
        <link rel="stylesheet" href={assets.css} />
        <script src={assets.htmx} defer />
        <script type="module" src={assets.boot} />
      </head>
      <body className={bodyClass}>
        {children}
        <div className="toast-region" id="toasts" role="status" aria-live="polite">
          {toast && <ToastNote {...toast} />}
        </div>
      </body>
    </html>
  );
}
