import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCheck } from '../../../src/servers/probes';
import { canonicalIp, connectsToTarget, refusedReason, resolveTarget } from '../../../src/servers/probes/targets';
import { openPort } from '../loopback';
import { check, fixedLookup, testContext, testPolicy } from './context';

describe('the target policy', () => {
  it('deny wins over allow', () => {
    const policy = testPolicy('0.0.0.0/0,::/0', '127.0.0.2/32');
    expect(refusedReason('127.0.0.2', policy)).toMatch(/^127\.0\.0\.2 is in a denied network/);
    expect(refusedReason('127.0.0.3', policy)).toBeNull();
  });

  it('the allow list, when set, is the only space allowed', () => {
    const policy = testPolicy('127.0.0.0/24');
    expect(refusedReason('127.0.0.200', policy)).toBeNull();
    expect(refusedReason('127.0.1.1', policy)).toMatch(/outside the allowed networks/);
    expect(refusedReason('::1', policy)).toMatch(/outside the allowed networks/);
  });

  it('refuses loopback and "this host" without an allow list, and lets other addresses through', () => {
    const policy = testPolicy(null);
    expect(refusedReason('127.0.0.1', policy)).toMatch(/is a local address/);
    expect(refusedReason('::1', policy)).toMatch(/is a local address/);
    expect(refusedReason('0.0.0.0', policy)).toMatch(/is a local address/);
    expect(refusedReason('192.0.2.10', policy)).toBeNull(); // TEST-NET-1: data only, never connected
  });

  it('refuses link-local and the cloud metadata address by default, even when everything is allowed', () => {
    const policy = testPolicy('0.0.0.0/0,::/0');
    expect(refusedReason('169.254.169.254', policy)).toMatch(/denied network/);
    expect(refusedReason('fe80::1', policy)).toMatch(/denied network/);
    expect(refusedReason('fe80::1%eth0', policy)).toMatch(/^fe80::1 is in a denied network/);
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(refusedReason('::ffff:169.254.169.254', testPolicy('0.0.0.0/0,::/0'))).toMatch(
      /^169\.254\.169\.254 is in a denied/,
    );
    expect(refusedReason('::ffff:127.0.0.1', testPolicy('127.0.0.0/8'))).toBeNull();
    expect(refusedReason('::ffff:127.0.0.1', testPolicy(null))).toMatch(/is a local address/);
  });

  it('refuses the metadata addresses outside link-local by default (AWS over IPv6, Alibaba Cloud)', () => {
    const policy = testPolicy('0.0.0.0/0,::/0');
    expect(refusedReason('fd00:ec2::254', policy)).toMatch(/denied network/);
    expect(refusedReason('100.100.100.200', policy)).toMatch(/denied network/);
    expect(refusedReason('100.100.100.201', policy)).toBeNull();
  });

  it('judges the IPv4 address a NAT64, 6to4 or IPv4-compatible address carries, as the network may reach it', () => {
    const everything = testPolicy('0.0.0.0/0,::/0');
    expect(refusedReason('64:ff9b::a9fe:a9fe', everything)).toMatch(
      /^64:ff9b::a9fe:a9fe carries 169\.254\.169\.254: .*denied/,
    );
    expect(refusedReason('2002:a9fe:a9fe::1', everything)).toMatch(/carries 169\.254\.169\.254/);
    expect(refusedReason('::a9fe:a9fe', everything)).toMatch(/carries 169\.254\.169\.254/);
    expect(refusedReason('::127.0.0.1', testPolicy(null))).toMatch(/carries 127\.0\.0\.1: .*local address/);
    expect(refusedReason('64:ff9b::c000:20a', testPolicy(null))).toBeNull(); // carries 192.0.2.10: allowed
    expect(refusedReason('2001:db8::1', testPolicy(null))).toBeNull();
  });

  it('reads IPv6 in its canonical form and every IPv4-mapped spelling as IPv4', () => {
    expect(canonicalIp('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalIp('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(canonicalIp('0:0:0:0:0:ffff:7f00:1')).toBe('127.0.0.1');
    expect(canonicalIp('127.0.0.1')).toBe('127.0.0.1');
    expect(refusedReason('::ffff:7f00:1', testPolicy(null))).toMatch(/^127\.0\.0\.1 is a local address/);
  });

  it('refuses a host name when any address it resolves to is refused', async () => {
    const lookup = fixedLookup({
      'metadata.test': ['169.254.169.254'],
      'mixed.test': ['127.0.0.1', '169.254.169.254'],
    });
    expect(await resolveTarget('metadata.test', testPolicy(), lookup)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Refused: 169\.254\.169\.254 is in a denied network/),
    });
    expect((await resolveTarget('mixed.test', testPolicy(), lookup)).ok).toBe(false);
    expect(await resolveTarget('[::ffff:127.0.0.1]', testPolicy())).toEqual({
      ok: true,
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('applies to every kind that connects, not to dns', () => {
    expect(['tcp', 'http', 'https', 'tls', 'dns'].filter((k) => connectsToTarget(k as never))).toEqual([
      'tcp',
      'http',
      'https',
      'tls',
    ]);
  });
});

describe('a refused target is never connected to', () => {
  let open: Awaited<ReturnType<typeof openPort>>;
  beforeAll(async () => {
    open = await openPort();
  });
  afterAll(() => open.close());
  afterEach(() => vi.restoreAllMocks());

  const kinds = ['tcp', 'http', 'https', 'tls'] as const;

  it.each(kinds)('%s to 169.254.169.254: refused without touching the network', async (kind) => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const r = await runCheck(check({ kind, target: '169.254.169.254', port: 80 }), testContext());
    expect(r).toMatchObject({ kind, status: 'failing', latencyMs: null });
    expect(r.error).toMatch(/^Refused: 169\.254\.169\.254 is in a denied network/);
    expect(connect).not.toHaveBeenCalled();
  });

  it.each(kinds)('%s to ::ffff:169.254.169.254 (IPv4-mapped) is refused too', async (kind) => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const r = await runCheck(check({ kind, target: '::ffff:169.254.169.254', port: 80 }), testContext());
    expect(r.error).toMatch(/^Refused: 169\.254\.169\.254 is in a denied network/);
    expect(connect).not.toHaveBeenCalled();
  });

  it.each(kinds)('%s to a name that resolves to a denied address is refused', async (kind) => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const lookup = fixedLookup({ 'metadata.test': ['169.254.169.254'] });
    const r = await runCheck(check({ kind, target: 'metadata.test', port: 80 }), testContext({ lookup }));
    expect(r.error).toMatch(/^Refused: 169\.254\.169\.254/);
    expect(connect).not.toHaveBeenCalled();
  });

  it('loopback without an allow list: refused, though something listens there', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const noLoopback = testContext({ policy: testPolicy(null) });
    for (const target of ['127.0.0.1', 'localhost']) {
      const r = await runCheck(check({ kind: 'tcp', target, port: open.port }), noLoopback);
      expect(r.error).toMatch(/^Refused: 127\.0\.0\.1 is a local address/);
    }
    expect(connect).not.toHaveBeenCalled();
    // The same check with loopback allowed connects.
    expect((await runCheck(check({ kind: 'tcp', target: '127.0.0.1', port: open.port }), testContext())).status).toBe(
      'ok',
    );
    expect(connect).toHaveBeenCalledTimes(1);
  });
});
