import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/servers/probes';
import { closedPort, openPort, silentPort } from '../loopback';
import { check, testContext } from './context';

describe('tcp checks', () => {
  let open: Awaited<ReturnType<typeof openPort>>;
  beforeAll(async () => {
    open = await openPort();
  });
  afterAll(() => open.close());

  it('is ok when the port accepts a connection, with its latency', async () => {
    const r = await runCheck(check({ id: 'c1', kind: 'tcp', target: '127.0.0.1', port: open.port }), testContext());
    expect(r).toMatchObject({ checkId: 'c1', kind: 'tcp', status: 'ok', error: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('connects to what a host name resolves to', async () => {
    const r = await runCheck(check({ kind: 'tcp', target: 'localhost', port: open.port }), testContext());
    expect(r.status).toBe('ok');
  });

  it('fails with a plain reason when the connection is refused; the raw error is the detail', async () => {
    const r = await runCheck(check({ kind: 'tcp', target: '127.0.0.1', port: await closedPort() }), testContext());
    expect(r).toMatchObject({ status: 'failing', latencyMs: null, error: 'connection refused' });
    expect(r.detail).toMatch(/ECONNREFUSED/);
  });

  it('times out on a host that never answers', async () => {
    const silent = await silentPort('127.0.0.1');
    try {
      const r = await runCheck(
        check({ kind: 'tcp', target: '127.0.0.1', port: silent.port }),
        testContext({ timeoutMs: 300 }),
      );
      expect(r).toMatchObject({ status: 'failing', error: 'Timed out after 300 ms' });
    } finally {
      silent.close();
    }
  });
});
