import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeContext, runCheck } from '../../../src/servers/probes';
import { makeCertificates, type KeyPair, type TestCertificates } from './certificates';
import { check, fixedLookup, testContext, testPolicy } from './context';
import { startHttpServer, startHttpsServer, type TestWebServer } from './web-servers';

const DAY = 86_400_000;

describe('https and tls checks', () => {
  let certs: TestCertificates;
  const servers: Record<string, TestWebServer> = {};
  beforeAll(async () => {
    certs = makeCertificates();
    const start = (pair: KeyPair) => startHttpsServer(pair, (_req, res) => res.end('secure hello'));
    servers.trusted = await start(certs.trusted);
    servers.fiveDays = await start(certs.fiveDays);
    servers.expired = await start(certs.expired);
    servers.otherName = await start(certs.otherName);
    servers.selfSigned = await start(certs.selfSigned);
  });
  afterAll(async () => {
    for (const server of Object.values(servers)) await server.close();
  });

  const trusting = (over = {}) => testContext({ ca: [certs.ca], ...over });
  const https = (server: string, over = {}) =>
    check({ kind: 'https', target: 'localhost', port: servers[server].port, expectText: 'secure hello', ...over });
  const tls = (server: string, over = {}) =>
    check({ kind: 'tls', target: 'localhost', port: servers[server].port, ...over });

  describe('https', () => {
    it('is ok with a certificate signed by a CA given in ctx.ca', async () => {
      const r = await runCheck(https('trusted'), trusting());
      expect(r).toMatchObject({ kind: 'https', status: 'ok', error: null });
      expect(servers.trusted.hosts.at(-1)).toBe(`localhost:${servers.trusted.port}`);
    });

    it('fails when the CA is not given: the system roots alone do not trust it', async () => {
      const r = await runCheck(https('trusted'), testContext());
      expect(r).toMatchObject({ status: 'failing', error: 'certificate not trusted: unknown issuer' });
      expect(r.detail).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify/i);
    });

    it('fails on a self-signed certificate, an expired one, and one for another name', async () => {
      expect((await runCheck(https('selfSigned'), trusting())).error).toBe('certificate not trusted: self-signed');
      expect((await runCheck(https('expired'), trusting())).error).toBe('certificate expired');
      expect((await runCheck(https('otherName'), trusting())).error).toBe(
        'certificate not trusted: issued for another host name',
      );
    });

    it('connects to the vetted address and checks the certificate for the target name', async () => {
      const lookup = fixedLookup({ 'other.test': ['127.0.0.1'] });
      const r = await runCheck(https('otherName', { target: 'other.test' }), trusting({ lookup }));
      expect(r.status).toBe('ok');
      expect(servers.otherName.hosts.at(-1)).toBe(`other.test:${servers.otherName.port}`);
    });

    it('checks the certificate against an IP address target', async () => {
      const r = await runCheck(https('trusted', { target: '127.0.0.1' }), trusting());
      expect(r.status).toBe('ok');
    });

    it('trusts the CA file HEALTH_CHECK_CA_FILE names, through probeContext', async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'probe-ca-'));
      try {
        writeFileSync(path.join(dir, 'ca.pem'), certs.ca);
        const health = {
          allowCidrs: testPolicy().allow,
          denyCidrs: testPolicy().deny,
          caFile: path.join(dir, 'ca.pem'),
        };
        const ctx = probeContext({ health } as unknown as Parameters<typeof probeContext>[0]);
        expect(ctx.timeoutMs).toBe(3000);
        expect((await runCheck(https('trusted'), ctx)).status).toBe('ok');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('fails plainly when the port does not speak TLS', async () => {
      const plain = await startHttpServer((_req, res) => res.end('plain hello'));
      try {
        const r = await runCheck(check({ kind: 'https', target: '127.0.0.1', port: plain.port }), trusting());
        expect(r).toMatchObject({ status: 'failing', error: 'TLS handshake failed' });
        expect(r.detail).toMatch(/wrong version number/);
      } finally {
        await plain.close();
      }
    });
  });

  describe('tls', () => {
    it('is ok with a trusted certificate far from expiry', async () => {
      const r = await runCheck(tls('trusted'), trusting());
      expect(r).toMatchObject({ kind: 'tls', status: 'ok', error: null });
      expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    });

    it('warns when the certificate expires in fewer than 21 days', async () => {
      const r = await runCheck(tls('fiveDays'), trusting({ now: () => certs.madeAt }));
      expect(r).toMatchObject({ status: 'warning', error: 'certificate expires in 5 days' });
    });

    it('takes the threshold from warnDays', async () => {
      expect((await runCheck(tls('fiveDays', { warnDays: 5 }), trusting({ now: () => certs.madeAt }))).status).toBe(
        'ok',
      );
      expect((await runCheck(tls('trusted', { warnDays: 100 }), trusting())).status).toBe('warning');
    });

    it('counts the days on the clock it is given', async () => {
      const later = new Date(certs.madeAt.getTime() + 4.5 * DAY);
      const r = await runCheck(tls('fiveDays'), trusting({ now: () => later }));
      expect(r.error).toBe('certificate expires in less than a day');
      const after = new Date(certs.madeAt.getTime() + 6 * DAY);
      const gone = await runCheck(tls('fiveDays'), trusting({ now: () => after }));
      expect(gone).toMatchObject({ status: 'failing' });
      expect(gone.error).toMatch(/^certificate expired on \d{4}-\d{2}-\d{2}$/);
    });

    it('connects to the vetted address and checks the certificate for the target name', async () => {
      const lookup = fixedLookup({ 'other.test': ['127.0.0.1'] });
      const r = await runCheck(tls('otherName', { target: 'other.test' }), trusting({ lookup }));
      expect(r).toMatchObject({ status: 'ok', error: null });
    });

    it('fails on an expired certificate, with the date', async () => {
      const r = await runCheck(tls('expired'), trusting());
      expect(r).toMatchObject({ status: 'failing', error: 'certificate expired on 2020-02-01' });
    });

    it('fails on a certificate it does not trust, saying why', async () => {
      expect((await runCheck(tls('trusted'), testContext())).error).toBe('certificate not trusted: unknown issuer');
      expect((await runCheck(tls('selfSigned'), trusting())).error).toBe('certificate not trusted: self-signed');
      const other = await runCheck(tls('otherName'), trusting());
      expect(other).toMatchObject({
        status: 'failing',
        error: 'certificate not trusted: issued for another host name',
      });
      expect(other.detail).toMatch(/other\.test/);
    });

    it('fails plainly when nothing listens', async () => {
      const r = await runCheck(tls('trusted', { target: '127.0.0.1', port: 1 }), trusting());
      expect(r).toMatchObject({ status: 'failing', error: 'connection refused' });
    });
  });
});
