import { Icon } from './icons';

/**
 * The header's bell. Without JavaScript it is a link to /notifications; with it, a drop-down (a `details.menu`, so
 * Escape and a click outside close it like every menu) whose panel htmx loads on each toggle (a filter on "open" would need eval, which the CSP forbids). The unread badge is
 * fetched after the page (cached pages stay right, and rendering a page costs no query).
 */
export function NotificationBell() {
  return (
    <>
      <noscript>
        <a className="icon-button" href="/notifications">
          <Icon name="bell" label="Notifications" />
        </a>
      </noscript>
      <details className="menu notify" data-js-only="" hidden>
        <summary className="icon-button notify__bell">
          <Icon name="bell" />
          <span className="visually-hidden">Notifications</span>
          <span id="notify-badge" hx-get="/notifications/badge" hx-trigger="load" hx-swap="outerHTML" />
        </summary>
        <section
          id="notify-panel"
          className="notify-panel"
          aria-label="Notifications"
          hx-get="/notifications/panel"
          hx-trigger="toggle from:closest details"
        >
          <a href="/notifications">See all notifications</a>
        </section>
      </details>
    </>
  );
}
