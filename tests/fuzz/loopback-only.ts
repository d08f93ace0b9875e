import net from 'node:net';

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3}|localhost)$/i;

type ConnectArgs = unknown[];

/** The host a Socket#connect call aims at (null for a local IPC path). */
function targetHost(args: ConnectArgs): string | null {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0]; // net.connect passes its normalised [options, cb]
  if (first && typeof first === 'object') {
    const o = first as { host?: string; path?: string };
    if (o.path) return null;
    return o.host ?? 'localhost';
  }
  if (typeof first === 'number' || /^\d+$/.test(String(first)))
    return typeof args[1] === 'string' ? args[1] : 'localhost';
  return null;
}

/**
 * Traffic rule guard for a test process: any TCP connection (probe, SMTP, HTTP, DNS-resolved host names)
 * to a host outside 127.0.0.0/8 is recorded and sent to 127.0.0.1:9 instead (refused at once), so a fuzz
 * case that would reach out fails the test instead of leaving the machine.
 */
export function loopbackOnly(): { attempts: string[]; restore(): void } {
  const attempts: string[] = [];
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: ConnectArgs) {
    const host = targetHost(args);
    if (host === null || LOOPBACK.test(host)) return (original as (...a: ConnectArgs) => net.Socket).apply(this, args);
    attempts.push(host);
    const cb = (Array.isArray(args[0]) ? args[0] : args).find((a: unknown) => typeof a === 'function');
    return (original as (...a: ConnectArgs) => net.Socket).call(
      this,
      { host: '127.0.0.1', port: 9 },
      ...(cb ? [cb] : []),
    );
  } as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}
