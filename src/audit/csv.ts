import type { Db } from '../db/client';
import type { AuditCursor } from './cursor';
import { type AuditEvent, type AuditFilters, auditBatch, filterConditions } from './query';

const BATCH = 1000;
const HEADER = ['time', 'actor_id', 'actor_email', 'action', 'entity_type', 'entity_id', 'details'];

/**
 * One CSV cell: a text a spreadsheet would run as a formula (= + - @, or a tab/CR that some strip first) gets a
 * leading apostrophe; a cell with a comma, quote or line break is quoted with its quotes doubled.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

const eventLine = (e: AuditEvent) =>
  csvLine([e.createdAt, e.actor?.id, e.actor?.email, e.action, e.entityType, e.entityId, JSON.stringify(e.details)]);

/**
 * The filtered audit trail as CSV, newest first, read in keyset batches as the client takes them (pull), so
 * memory stays flat however many rows there are.
 */
export function auditCsvStream(db: Db, filters: AuditFilters): ReadableStream<Uint8Array> {
  const where = filterConditions(filters);
  const encoder = new TextEncoder();
  let cursor: AuditCursor | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { events, keys } = await auditBatch(db, where, cursor, BATCH);
        const head = started ? '' : csvLine(HEADER);
        started = true;
        controller.enqueue(encoder.encode(head + events.map(eventLine).join('')));
        cursor = keys.at(-1);
        if (events.length < BATCH) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
