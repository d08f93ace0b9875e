import type { ImportReportEntry } from '../../db/schema';
import type { ImportJobStatus } from '../../db/schema/values';
import { SPACES, type Space } from '../../knowledge/shared';
import { Badge, Banner, Card } from '../../ui/components';
import type { BadgeColour } from '../../ui/shared';
import type { ImportJobView } from '../service';

export const STATUS_LABELS: Record<ImportJobStatus, string> = {
  preview: 'Preview',
  queued: 'Waiting to start',
  running: 'Importing',
  done: 'Finished',
  failed: 'Stopped',
};

const isActive = (status: ImportJobStatus) => status === 'queued' || status === 'running';
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const ACTION: Record<ImportReportEntry['action'], { label: string; preview: string; colour: BadgeColour }> = {
  create: { label: 'Created', preview: 'Will be created', colour: 'green' },
  skip: { label: 'Skipped', preview: 'Will be skipped', colour: 'neutral' },
  error: { label: 'Error', preview: 'Error', colour: 'red' },
};

/** Each file with what it does or did, and why when it is not created. */
function ReportTable({ items, space, preview }: { items: ImportReportEntry[]; space: Space; preview: boolean }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Title</th>
            <th scope="col">Result</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.path}>
              <td data-label="File">
                <code>{e.path}</code>
              </td>
              <th scope="row" data-label="Title">
                {e.itemId ? <a href={`${SPACES[space].path}/${e.itemId}`}>{e.title}</a> : e.title}
              </th>
              <td data-label="Result">
                <Badge colour={ACTION[e.action].colour}>
                  {preview ? ACTION[e.action].preview : ACTION[e.action].label}
                </Badge>
              </td>
              <td data-label="Why">{e.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const count = (items: ImportReportEntry[], action: ImportReportEntry['action']) =>
  items.filter((e) => e.action === action).length;

/**
 * The part of the report page that changes while the job runs: htmx asks for it again every 2 s until the job is
 * over (the finished part has no trigger, so asking stops); without JavaScript the page itself reloads.
 */
export function ImportProgress({ job }: { job: ImportJobView }) {
  const summary = `${job.done} of ${plural(job.total, 'file')}: ${job.created} created, ${job.skipped} skipped, ${plural(job.errors, 'error')}.`;
  if (isActive(job.status)) {
    return (
      <section
        id="import-progress"
        className="card stack"
        hx-get={`/import/${job.id}/progress`}
        hx-trigger="every 2s"
        hx-swap="outerHTML"
      >
        <p role="status">{`${STATUS_LABELS[job.status]}… ${summary}`}</p>
        <progress className="progress" value={job.done} max={Math.max(1, job.total)} aria-label="Import progress" />
      </section>
    );
  }
  return (
    <section id="import-progress" className="stack">
      <Banner variant={job.status === 'failed' || job.errors > 0 ? 'error' : 'success'}>
        {`${STATUS_LABELS[job.status]}: ${summary}`}
      </Banner>
      <ReportTable items={job.items} space={job.space} preview={false} />
    </section>
  );
}

/**
 * The preview of an upload (Confirm or Cancel, for the one who uploaded it), or the job's progress and, once over,
 * its report.
 */
export function ImportJobPage({ job, mine }: { job: ImportJobView; mine: boolean }) {
  const where = SPACES[job.space].page.title;
  if (job.status !== 'preview') {
    return (
      <div className="stack">
        {isActive(job.status) && (
          // Without JavaScript the page reloads itself until the job is over (htmx refreshes only the progress).
          <noscript>
            <meta httpEquiv="refresh" content="3" />
          </noscript>
        )}
        <p className="muted">
          {`Import into the ${where.toLowerCase()}. `}
          <a href={`/import?space=${job.space}`}>Import more</a>
        </p>
        <ImportProgress job={job} />
      </div>
    );
  }
  const creates = count(job.items, 'create');
  return (
    <Card
      title="Preview"
      subtitle={`Into the ${where.toLowerCase()}: ${plural(creates, 'item')} to create, ${count(job.items, 'skip')} to skip, ${plural(count(job.items, 'error'), 'error')}.`}
    >
      <div className="stack">
        <ReportTable items={job.items} space={job.space} preview />
        {mine ? (
          <div className="row">
            <form method="post" action={`/import/${job.id}/confirm`}>
              <button type="submit" className="btn btn--primary">
                {`Import ${plural(creates, 'item')}`}
              </button>
            </form>
            <form method="post" action={`/import/${job.id}/cancel`}>
              <button type="submit" className="btn btn--secondary">
                Cancel
              </button>
            </form>
          </div>
        ) : (
          <p className="muted">Only the person who uploaded it can confirm or cancel this import.</p>
        )}
      </div>
    </Card>
  );
}
