import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A key and certificate (PEM) for a test TLS server. */
export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestCertificates {
  /** The test CA's certificate: trusted only when a probe is given it (ctx.ca). */
  ca: string;
  /** Signed by the CA for localhost and 127.0.0.1, valid 90 days. */
  trusted: KeyPair;
  /** Signed by the CA, expires in 5 days and an hour. */
  fiveDays: KeyPair;
  /** Signed by the CA, valid in January 2020 only. */
  expired: KeyPair;
  /** Signed by the CA for another name (other.test) only. */
  otherName: KeyPair;
  /** Self-signed, for localhost and 127.0.0.1. */
  selfSigned: KeyPair;
  /** When the certificates were made. */
  madeAt: Date;
}

const OPENSSL = '/usr/bin/openssl';
const LOCAL_NAMES = 'DNS:localhost,IP:127.0.0.1';
const HOUR = 3_600_000;

/** openssl's date form for `ca -startdate/-enddate`: YYYYMMDDHHMMSSZ. */
const opensslDate = (d: Date) => `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

const caConfig = (altNames: string) => `[ca]
default_ca = test
[test]
database = db/index.txt
serial = db/serial
new_certs_dir = db
default_md = sha256
policy = any
copy_extensions = none
x509_extensions = leaf
unique_subject = no
[any]
commonName = supplied
[leaf]
subjectAltName = ${altNames}
basicConstraints = CA:FALSE
`;

/**
 * Makes a CA and certificates signed by it with the openssl CLI, in a temporary directory removed afterwards.
 * `openssl ca` takes any start and end dates, so an expired certificate needs no fake clock.
 */
export function makeCertificates(): TestCertificates {
  if (!existsSync(OPENSSL)) throw new Error(`${OPENSSL} is needed to make test certificates`);
  const dir = mkdtempSync(path.join(tmpdir(), 'probe-certs-'));
  const openssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  try {
    const madeAt = new Date();
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '365',
      '-subj',
      '/CN=Probe Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    openssl('req', ...newKey, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost');
    mkdirSync(path.join(dir, 'db'));
    writeFileSync(path.join(dir, 'db/index.txt'), '');
    writeFileSync(path.join(dir, 'db/serial'), '01\n');
    const sign = (name: string, from: Date, to: Date, altNames = LOCAL_NAMES): KeyPair => {
      writeFileSync(path.join(dir, `${name}.cnf`), caConfig(altNames));
      openssl(
        'ca',
        '-batch',
        '-config',
        `${name}.cnf`,
        '-cert',
        'ca.pem',
        '-keyfile',
        'ca.key',
        '-in',
        'leaf.csr',
        '-out',
        `${name}.pem`,
        '-notext',
        '-startdate',
        opensslDate(from),
        '-enddate',
        opensslDate(to),
      );
      return { key: read('leaf.key'), cert: read(`${name}.pem`) };
    };
    const now = madeAt.getTime();
    const certificates = {
      ca: read('ca.pem'),
      trusted: sign('trusted', new Date(now - HOUR), new Date(now + 90 * 24 * HOUR)),
      fiveDays: sign('five-days', new Date(now - HOUR), new Date(now + 5 * 24 * HOUR + HOUR)),
      expired: sign('expired', new Date('2020-01-01T00:00:00Z'), new Date('2020-02-01T00:00:00Z')),
      otherName: sign('other-name', new Date(now - HOUR), new Date(now + 90 * 24 * HOUR), 'DNS:other.test'),
      madeAt,
    };
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      'self.key',
      '-out',
      'self.pem',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${LOCAL_NAMES}`,
    );
    return { ...certificates, selfSigned: { key: read('self.key'), cert: read('self.pem') } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
