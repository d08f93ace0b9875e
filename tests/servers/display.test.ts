import { describe, expect, it } from 'vitest';
import {
  compareServerNames,
  firstCheckPending,
  healthCheckMessage,
  lastCheckText,
  sortByServerName,
  uptimeText,
  usageText,
} from '../../src/servers/shared';

const names = (list: string[]) => sortByServerName(list.map((name) => ({ name }))).map((s) => s.name);

describe('server names in natural order', () => {
  it('puts web-2 before web-10 and ignores case', () => {
    expect(names(['web-10', 'Web-3', 'web-2', 'WEB-1', 'app-01', 'db-02', 'DB-1'])).toEqual([
      'app-01',
      'DB-1',
      'db-02',
      'WEB-1',
      'web-2',
      'Web-3',
      'web-10',
    ]);
  });

  it('compares names that differ only in case as equal, and leaves the list it was given alone', () => {
    expect(compareServerNames('Web-01', 'web-01')).toBe(0);
    expect(compareServerNames('web-9', 'web-10')).toBeLessThan(0);
    const list = [{ name: 'b' }, { name: 'a' }];
    sortByServerName(list);
    expect(list.map((s) => s.name)).toEqual(['b', 'a']);
  });
});

describe('what the table shows', () => {
  const never = { metricsUpdatedAt: null, uptime: 0, lastHealthCheck: null };
  const pushed = { metricsUpdatedAt: '2026-11-20T10:00:00.000Z', uptime: 90061, lastHealthCheck: null };
  const format = (iso: string) => `at ${iso}`;

  it('shows "—" for usage and uptime when no metrics were ever pushed, not 0% or 0d 0h', () => {
    expect(usageText(never, 0)).toBe('—');
    expect(uptimeText(never)).toBe('—');
  });

  it('shows pushed usage and uptime as they are, a pushed 0 included', () => {
    expect(usageText(pushed, 42.4)).toBe('42%');
    expect(usageText(pushed, 0)).toBe('0%');
    expect(uptimeText(pushed)).toBe('1d 1h');
    expect(uptimeText({ ...pushed, uptime: 0 })).toBe('0d 0h');
  });

  it('keeps the last check apart from the uptime: its time, or "—" when never checked', () => {
    const checked = { ...never, lastHealthCheck: '2026-11-20T14:15:00.000Z' };
    expect(uptimeText(checked)).toBe('—');
    expect(lastCheckText(checked, format)).toBe('at 2026-11-20T14:15:00.000Z');
    expect(lastCheckText(never, format)).toBe('—');
  });
});

describe('the Health Check Complete text', () => {
  it('says what the probe found, in its own words', () => {
    expect(healthCheckMessage('db-02', { status: 'offline', latencyMs: null, error: 'connection refused' })).toBe(
      'db-02 is offline: connection refused',
    );
    expect(healthCheckMessage('web-01', { status: 'online', latencyMs: 3, error: null })).toBe(
      'web-01 is online: answered in 3 ms.',
    );
    expect(healthCheckMessage('web-02', { status: 'warning', latencyMs: 5, error: null })).toBe(
      'web-02 is in warning: answered in 5 ms, but CPU, memory or disk is at 90% or more.',
    );
  });

  it('says a server in maintenance was not probed', () => {
    expect(healthCheckMessage('db-03', null)).toBe('db-03 is in maintenance: it was not probed.');
  });
});

describe('a first check still under way after Add Server answered', () => {
  const added = { status: 'unknown' as const, lastHealthCheck: null, ipAddress: '127.0.0.1', hostname: null };

  it('is pending for a server with an address, not yet checked, not in maintenance', () => {
    expect(firstCheckPending(added)).toBe(true);
    expect(firstCheckPending({ ...added, ipAddress: null, hostname: 'db-01.corp.example.com' })).toBe(true);
  });

  it('is not pending once checked, in maintenance, or without an address to probe', () => {
    expect(firstCheckPending({ ...added, lastHealthCheck: '2026-11-20T14:15:00.000Z' })).toBe(false);
    expect(firstCheckPending({ ...added, status: 'maintenance' })).toBe(false);
    expect(firstCheckPending({ ...added, ipAddress: null })).toBe(false);
  });
});
