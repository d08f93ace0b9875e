import { describe, expect, it } from 'vitest';
import { implicitCheck, runCheck } from '../../../src/servers/probes';
import { check, testContext } from './context';

describe('runCheck', () => {
  it('never throws: whatever a probe meets becomes a failing result with the raw text as detail', async () => {
    const broken = async () => {
      throw new TypeError('resolver exploded');
    };
    for (const kind of ['tcp', 'http', 'https', 'tls', 'dns'] as const) {
      const r = await runCheck(check({ id: 'c9', kind, target: 'db.test' }), testContext({ lookup: broken }));
      expect(r).toMatchObject({ checkId: 'c9', kind, status: 'failing', latencyMs: null });
      expect(r.error).not.toMatch(/exploded/);
      expect(r.detail).toMatch(/resolver exploded/);
    }
    const thrower = () => {
      throw 'not even an Error';
    };
    const r = await runCheck(check({ kind: 'dns', target: 'db.test' }), testContext({ lookup: thrower as never }));
    expect(r).toMatchObject({ status: 'failing', error: 'host name lookup failed', detail: 'not even an Error' });
  });

  it('fails a kind it does not know', async () => {
    const r = await runCheck(check({ kind: 'smtp' as never, target: '127.0.0.1' }), testContext());
    expect(r).toMatchObject({ status: 'failing', error: 'unknown check kind "smtp"' });
  });

  it('bounds the whole check, the lookup included, by the timeout', async () => {
    const never = () => new Promise<never>(() => {});
    for (const kind of ['tcp', 'http', 'tls'] as const) {
      const r = await runCheck(check({ kind, target: 'slow.test' }), testContext({ lookup: never, timeoutMs: 50 }));
      expect(r).toMatchObject({ status: 'failing', error: 'Timed out after 50 ms' });
    }
  });

  it('a server without checks has the implicit tcp check on monitorPort', () => {
    expect(implicitCheck({ ipAddress: null, hostname: 'db.test', monitorPort: 5432 })).toMatchObject({
      id: null,
      kind: 'tcp',
      target: 'db.test',
      port: 5432,
    });
    expect(implicitCheck({ ipAddress: null, hostname: null, monitorPort: 22 })).toBeNull();
  });
});
