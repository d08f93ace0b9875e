import type { ReactNode } from 'react';
import type { BadgeColour } from './shared';
import { Icon, type IconName } from './icons';

/** Shared server-side building blocks. Islands have their own (React in the browser). */

export function Badge({
  colour = 'neutral',
  outline,
  children,
}: {
  colour?: BadgeColour;
  outline?: boolean;
  children: ReactNode;
}) {
  return <span className={`badge badge--${colour}${outline ? ' badge--outline' : ''}`}>{children}</span>;
}

export function EmptyState({
  icon = 'file',
  title,
  text,
  children,
}: {
  icon?: IconName;
  title: string;
  text?: string;
  children?: ReactNode;
}) {
  return (
    <div className="empty-state">
      <Icon name={icon} />
      <p className="empty-state__title">{title}</p>
      {text && <p className="empty-state__text">{text}</p>}
      {children}
    </div>
  );
}

export function Card({
  title,
  subtitle,
  actions,
  children,
  className,
  id,
}: {
  title?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** The section's id, for links to it (`#runbooks`). */
  id?: string;
}) {
  return (
    <section id={id} className={`card${className ? ` ${className}` : ''}`}>
      {(title || actions) && (
        <header className="card__header">
          <div>
            {title && <h2 className="card__title">{title}</h2>}
            {subtitle && <p className="card__subtitle">{subtitle}</p>}
          </div>
          {actions && <div className="row">{actions}</div>}
        </header>
      )}
      <div className="card__body">{children}</div>
    </section>
  );
}

/** A labelled form field with its error message (422 re-renders pass the error back). */
export function Field({
  label,
  htmlFor,
  error,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {hint && <p className="field__hint">{hint}</p>}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function Banner({ variant, children }: { variant: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`banner banner--${variant}`} role={variant === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/**
 * A round picture, else the initials given. Only our own images (paths such as /objects/…) are shown: the CSP
 * allows no other image hosts, and an identity provider's picture URL would be a broken image (and a request to it).
 */
export function Avatar({
  imageUrl,
  initials,
  large,
}: {
  imageUrl: string | null | undefined;
  initials: string;
  large?: boolean;
}) {
  const own = imageUrl?.startsWith('/') && !imageUrl.startsWith('//') ? imageUrl : null;
  return (
    <span className={large ? 'avatar avatar--lg' : 'avatar'} aria-hidden="true">
      {own ? <img src={own} alt="" /> : initials}
    </span>
  );
}

export function Skeleton({ className = 'skeleton--text' }: { className?: string }) {
  return <div className={`skeleton ${className}`} aria-hidden="true" />;
}
