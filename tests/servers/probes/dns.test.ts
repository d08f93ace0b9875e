import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCheck } from '../../../src/servers/probes';
import { check, fixedLookup, testContext, testPolicy } from './context';

// Names resolve with the system resolver, where the hosts file answers for localhost; other names come from an
// injected resolver (ProbeContext.lookup): a name the hosts file lacks would go to the nameserver, off this machine.
describe('dns checks', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is ok when the name resolves (the hosts file applies), and connects nowhere', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const r = await runCheck(check({ kind: 'dns', target: 'localhost' }), testContext());
    expect(r).toMatchObject({ kind: 'dns', status: 'ok', error: null });
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(connect).not.toHaveBeenCalled();
  });

  it('is ok when one of the answers is the expected address, however it is written', async () => {
    expect(
      (await runCheck(check({ kind: 'dns', target: 'localhost', expectAddress: '127.0.0.1' }), testContext())).status,
    ).toBe('ok');
    const lookup = fixedLookup({ 'db.test': ['127.0.0.5', '::1'] });
    const v6 = check({ kind: 'dns', target: 'db.test', expectAddress: '0:0:0:0:0:0:0:1' });
    expect((await runCheck(v6, testContext({ lookup }))).status).toBe('ok');
    const mapped = check({ kind: 'dns', target: 'db.test', expectAddress: '::ffff:127.0.0.5' });
    expect((await runCheck(mapped, testContext({ lookup }))).status).toBe('ok');
  });

  it('fails when no answer is the expected address, saying what it resolves to', async () => {
    const r = await runCheck(check({ kind: 'dns', target: 'localhost', expectAddress: '127.0.0.9' }), testContext());
    expect(r.status).toBe('failing');
    expect(r.error).toMatch(/^resolves to (.*, )?127\.0\.0\.1(, .*)?, expected 127\.0\.0\.9$/);
    const lookup = fixedLookup({ 'db.test': ['127.0.0.2'] });
    const other = await runCheck(
      check({ kind: 'dns', target: 'db.test', expectAddress: '127.0.0.3' }),
      testContext({ lookup }),
    );
    expect(other.error).toBe('resolves to 127.0.0.2, expected 127.0.0.3');
  });

  it('fails when the name does not resolve', async () => {
    const lookup = fixedLookup({});
    const r = await runCheck(check({ kind: 'dns', target: 'nothing.invalid' }), testContext({ lookup }));
    expect(r).toMatchObject({ status: 'failing', latencyMs: null, error: 'host name not found' });
    expect(r.detail).toMatch(/ENOTFOUND/);
    expect(lookup.asked).toEqual(['nothing.invalid']);
  });

  it('fails plainly when the resolver fails or never answers', async () => {
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN db.test'), { code: 'EAI_AGAIN' });
    };
    expect((await runCheck(check({ kind: 'dns', target: 'db.test' }), testContext({ lookup: failing }))).error).toBe(
      'host name lookup failed',
    );
    const silent = () => new Promise<never>(() => {});
    const r = await runCheck(
      check({ kind: 'dns', target: 'db.test' }),
      testContext({ lookup: silent, timeoutMs: 100 }),
    );
    expect(r.error).toBe('Timed out after 100 ms');
  });

  it('is not subject to the target policy: it only asks the resolver', async () => {
    const noLoopback = testContext({ policy: testPolicy(null) });
    expect(
      (await runCheck(check({ kind: 'dns', target: 'localhost', expectAddress: '127.0.0.1' }), noLoopback)).status,
    ).toBe('ok');
    const lookup = fixedLookup({ 'metadata.test': ['169.254.169.254'] });
    const metadata = check({ kind: 'dns', target: 'metadata.test', expectAddress: '169.254.169.254' });
    expect((await runCheck(metadata, testContext({ lookup }))).status).toBe('ok');
  });
});
