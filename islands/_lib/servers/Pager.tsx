/** "Showing 1–50 of 2000" with Previous / Next: links for readers without JavaScript, state changes with it. */
export function Pager(props: {
  pageIndex: number;
  pageCount: number;
  total: number;
  pageSize: number;
  href(i: number): string;
  onPage(i: number): void;
}) {
  const { pageIndex, pageCount, total, pageSize } = props;
  if (pageCount <= 1) return null;
  const from = pageIndex * pageSize + 1;
  const to = Math.min(total, from + pageSize - 1);
  const link = (i: number, label: string) =>
    i < 0 || i >= pageCount ? (
      <span className="btn btn--sm" aria-disabled="true">
        {label}
      </span>
    ) : (
      <a
        className="btn btn--sm"
        href={props.href(i)}
        onClick={(e) => {
          e.preventDefault();
          props.onPage(i);
        }}
      >
        {label}
      </a>
    );
  return (
    <nav className="server-pager" aria-label="Pages">
      <span className="muted small">{`Showing ${from}–${to} of ${total}`}</span>
      <span className="spacer" />
      {link(pageIndex - 1, 'Previous')}
      <span className="small">{`Page ${pageIndex + 1} of ${pageCount}`}</span>
      {link(pageIndex + 1, 'Next')}
    </nav>
  );
}
