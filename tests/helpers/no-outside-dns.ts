import dns from 'node:dns';
import dnsPromises from 'node:dns/promises';
import { syncBuiltinESMExports } from 'node:module';

/*
 * Traffic rule: nothing a test runs may reach beyond 127.0.0.0/8, and a name lookup of "web-01.corp.example.com"
 * would ask the machine's nameserver. In the test processes only "localhost" and IP literals resolve; any other name
 * answers ENOTFOUND at once, as an unknown name does (tests that need names inject a resolver).
 */
const GUARD = Symbol.for('opshub.noOutsideDns');
const local = (name: string) => name === 'localhost' || name.endsWith('.localhost');
const isLiteral = (name: string) => /^[\d.]+$/.test(name) || name.includes(':');

function refused(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname} (tests resolve only localhost)`);
  err.code = 'ENOTFOUND';
  err.syscall = 'getaddrinfo';
  return err;
}

const holder = dns as unknown as Record<symbol, boolean>;
if (!holder[GUARD]) {
  holder[GUARD] = true;
  const lookup = dns.lookup;
  const guarded = ((hostname: string, ...rest: unknown[]) => {
    if (typeof hostname === 'string' && !local(hostname) && !isLiteral(hostname)) {
      const callback = rest[rest.length - 1] as (err: NodeJS.ErrnoException) => void;
      process.nextTick(() => callback(refused(hostname)));
      return {};
    }
    return (lookup as (...a: unknown[]) => unknown)(hostname, ...rest);
  }) as typeof dns.lookup;
  dns.lookup = guarded;
  const promisesLookup = dnsPromises.lookup;
  const guardedPromise = ((hostname: string, options?: unknown) => {
    if (!local(hostname) && !isLiteral(hostname)) return Promise.reject(refused(hostname));
    return (promisesLookup as (h: string, o?: unknown) => Promise<unknown>)(hostname, options);
  }) as typeof dnsPromises.lookup;
  dnsPromises.lookup = guardedPromise;
  dns.promises.lookup = guardedPromise;
  // `import { lookup } from 'node:dns/promises'` reads the ESM export: bring it in line with the patched object.
  syncBuiltinESMExports();
}
