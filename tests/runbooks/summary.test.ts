import { describe, expect, it } from 'vitest';
import { isoOrNull, summaryOf } from '../../src/runbooks/shared';

/** The one Server → ServerSummary mapping (item answers, the editor's prefill and picker, mentions). */

const row = {
  id: '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d',
  name: 'web1',
  hostname: 'web1.corp.example.com',
  ipAddress: '127.0.0.1',
  status: 'online' as const,
  environment: 'production' as const,
  cpuUsage: 12,
  memoryUsage: 34,
  diskUsage: 56,
  uptime: 7200,
  lastHealthCheck: '2026-11-27T01:30:00Z',
  metricsUpdatedAt: null,
};

describe('summaryOf', () => {
  it('keeps only the summary fields of a full server (no notes, contacts … in the answer)', () => {
    const out = summaryOf({ ...row, keyContacts: 'ada@example.com', description: 'secret' } as typeof row);
    expect(out).toEqual({ ...row, lastHealthCheck: '2026-11-27T01:30:00.000Z' });
    expect(Object.keys(out)).not.toContain('keyContacts');
  });

  it('reads a database row: null metrics are 0, Date times are ISO text', () => {
    const at = new Date('2026-11-27T02:00:00Z');
    const out = summaryOf({ ...row, cpuUsage: null, uptime: null, lastHealthCheck: at, metricsUpdatedAt: at });
    expect(out).toMatchObject({ cpuUsage: 0, uptime: 0, memoryUsage: 34 });
    expect(out.lastHealthCheck).toBe('2026-11-27T02:00:00.000Z');
    expect(out.metricsUpdatedAt).toBe('2026-11-27T02:00:00.000Z');
  });

  it('isoOrNull: null stays null, text and Dates become the same ISO time', () => {
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull('2026-11-27T01:30:00+01:00')).toBe('2026-11-27T00:30:00.000Z');
    expect(isoOrNull(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });
});
