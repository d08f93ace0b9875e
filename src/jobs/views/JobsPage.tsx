import { Badge, Banner, Card, EmptyState } from '../../ui/components';
import { formatDateTime, relativeTime } from '../../ui/shared';
import type { BadgeColour } from '../../ui/shared';
import type { JobRow, JobsMode } from '../overview';
import { serverTimeZone } from '../schedule-text';
import type { FailedMail } from '../service';

const RESULT_COLOUR: Record<string, BadgeColour> = { ok: 'green', error: 'red', running: 'blue', skipped: 'neutral' };
const RESULT_LABEL: Record<string, string> = { ok: 'OK', error: 'Failed', running: 'Running', skipped: 'Skipped' };

const MODE_TEXT: Record<JobsMode, string> = {
  inline: 'Jobs run inside this web process (JOBS=inline, the default with the embedded database).',
  worker: 'Jobs run in separate worker processes (npm run worker); next runs assume at least one worker is running.',
  off: 'Scheduled jobs are off (JOBS=off): nothing runs on its own. "Run now" still works.',
};

function duration(ms: number | null): string {
  if (ms == null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The jobs table (also the htmx fragment "run now" answers with). */
export function JobsTable({ jobs, timeZone, now }: { jobs: JobRow[]; timeZone: string; now: Date }) {
  return (
    <div className="table-wrap" id="jobs-table">
      <table className="table">
        <caption className="jobs-times small muted">
          {`Schedules and next runs are in your timezone, ${timeZone}. The cron expressions are in the server timezone (${serverTimeZone()}).`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Schedule</th>
            <th scope="col">Last run</th>
            <th scope="col">Duration</th>
            <th scope="col">Result</th>
            <th scope="col">Next run</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.name} data-job={job.name}>
              <td>
                <strong>{job.title}</strong>
                <div className="small muted">{job.name}</div>
              </td>
              <td className="jobs-schedule">
                {job.enabled ? (
                  <>
                    {job.scheduleText && <div>{job.scheduleText}</div>}
                    <code className="small">{job.schedule}</code>
                  </>
                ) : (
                  <Badge>Off</Badge>
                )}
              </td>
              <td title={job.lastRun ? formatDateTime(job.lastRun.startedAt, timeZone) : undefined}>
                {job.lastRun ? relativeTime(job.lastRun.startedAt, now) : 'Never'}
              </td>
              <td>{duration(job.lastRun?.durationMs ?? null)}</td>
              <td>
                {job.lastRun ? (
                  <Badge colour={RESULT_COLOUR[job.lastRun.result]}>{RESULT_LABEL[job.lastRun.result]}</Badge>
                ) : (
                  '—'
                )}
                {job.lastRun?.message && <div className="small muted">{job.lastRun.message}</div>}
                {job.lastSkipped && (
                  <div className="small" data-skipped>
                    <Badge colour={RESULT_COLOUR.skipped}>{RESULT_LABEL.skipped}</Badge>{' '}
                    <span title={formatDateTime(job.lastSkipped.startedAt, timeZone)}>
                      {relativeTime(job.lastSkipped.startedAt, now)}
                    </span>
                    {job.lastSkipped.message && <span className="muted">{`: ${job.lastSkipped.message}`}</span>}
                  </div>
                )}
              </td>
              <td>{job.nextRun ? formatDateTime(job.nextRun, timeZone) : 'Not scheduled'}</td>
              <td>
                <form
                  method="post"
                  action={`/admin/jobs/${job.name}/run`}
                  hx-post={`/admin/jobs/${job.name}/run`}
                  hx-target="#jobs-table"
                  hx-swap="outerHTML"
                >
                  <button type="submit" className="btn btn--secondary btn--sm" aria-label={`Run ${job.title} now`}>
                    Run now
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FailedMailTable({ rows, timeZone }: { rows: FailedMail[]; timeZone: string }) {
  if (rows.length === 0)
    return (
      <EmptyState icon="mail" title="No failed e-mail" text="Every message was delivered or is still being retried." />
    );
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">To</th>
            <th scope="col">Subject</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last error</th>
            <th scope="col">Queued</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.id}>
              <td>{m.to}</td>
              <td>{m.subject}</td>
              <td>{m.attempts}</td>
              <td className="small">{m.lastError ?? '—'}</td>
              <td>{formatDateTime(m.createdAt, timeZone)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface JobsPageProps {
  jobs: JobRow[];
  mode: JobsMode;
  failed: FailedMail[];
  timeZone: string;
  now: Date;
  notice?: { variant: 'success' | 'error' | 'info'; text: string };
}

/** /admin/jobs: schedules, last and next runs, "run now", and e-mail that gave up. */
export function JobsPage({ jobs, mode, failed, timeZone, now, notice }: JobsPageProps) {
  return (
    <div className="stack">
      {notice && <Banner variant={notice.variant}>{notice.text}</Banner>}
      <p className="muted">{MODE_TEXT[mode]}</p>
      <Card
        title="Scheduled jobs"
        subtitle="Each run holds a database lock, so only one worker runs a job at a time; every worker takes part in each health-check round. A tick that finds the previous run still going is skipped and shown here."
      >
        <JobsTable jobs={jobs} timeZone={timeZone} now={now} />
      </Card>
      <Card title="Failed e-mail" subtitle="Messages the mail server refused, or that failed 10 delivery attempts.">
        <FailedMailTable rows={failed} timeZone={timeZone} />
      </Card>
      <p>
        <a href="/reports/health">Open the fleet health report</a>
      </p>
    </div>
  );
}
