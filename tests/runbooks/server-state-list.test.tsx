import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ServerSummary } from '../../src/runbooks/shared';
import { ServerStateList } from '../../src/runbooks/shared/ServerStateList';

/** Issue 23: the facts the Servers panel (read page) and the category preview (island) show of each linked server. */

const db1: ServerSummary = {
  id: '3f1c2b9e-8d4a-4c7e-9b1a-2e5f6a7b8c9d',
  name: 'db1',
  hostname: null,
  ipAddress: '127.0.0.5',
  status: 'offline',
  environment: 'production',
  cpuUsage: 12.4,
  memoryUsage: 50,
  diskUsage: 99.6,
  uptime: 2 * 86400 + 5 * 3600 + 1800,
  lastHealthCheck: '2026-11-27T01:30:00.000Z',
  metricsUpdatedAt: '2026-11-27T01:29:00.000Z',
};

const html = (s: ServerSummary, timeZone = 'Asia/Tokyo') =>
  renderToString(<ServerStateList servers={[s]} timeZone={timeZone} />);

describe('ServerStateList', () => {
  it("shows name (to the server's page), status, environment, usage, uptime and the check in the reader's timezone", () => {
    const out = html(db1);
    expect(out).toContain(`<a href="/infrastructure/${db1.id}">db1</a>`);
    expect(out).toContain('<span class="badge badge--red">offline</span>');
    expect(out).toContain('production</span>');
    for (const fact of ['<dt>CPU</dt><dd>12%</dd>', '<dt>Memory</dt><dd>50%</dd>', '<dt>Disk</dt><dd>100%</dd>'])
      expect(out).toContain(fact);
    expect(out).toContain('<dt>Uptime</dt><dd>2d 5h</dd>');
    expect(out).toContain('<time dateTime="2026-11-27T01:30:00.000Z">27 Nov 2026, 10:30 am</time>');
    expect(html(db1, 'UTC')).toContain('27 Nov 2026, 1:30 am');
  });

  it('shows — for metrics no agent pushed and a check never made', () => {
    const out = html({ ...db1, metricsUpdatedAt: null, lastHealthCheck: null });
    for (const label of ['CPU', 'Memory', 'Disk', 'Uptime', 'Last check'])
      expect(out).toContain(`<dt>${label}</dt><dd>—</dd>`);
    expect(out).not.toContain('<time');
  });

  it('escapes a name that looks like markup', () => {
    expect(html({ ...db1, name: '<b>x</b>' })).toContain('&lt;b&gt;x&lt;/b&gt;</a>');
  });
});
