/**
 * How long one health-check round takes for 2,000 servers, half of them unreachable:
 *   npx tsx tests/bench/health-round.ts            (embedded PGlite in memory)
 *   TEST_DATABASE_URL=postgres://… npx tsx tests/bench/health-round.ts   (a fresh database on that server)
 * 1,000 servers point at 20 real listeners on 127.0.0.1, 1,000 at closed ports on 127.0.0.1; concurrency 20.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { checkAllServers } from '../../src/servers/health';
import { servers } from '../../src/db/schema';
import { createTestDatabase } from '../helpers/db';

const TOTAL = Number(process.env.BENCH_SERVERS ?? 2000);
const LISTENERS = 20;

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}

async function closedPorts(n: number): Promise<number[]> {
  const opened = await Promise.all(Array.from({ length: n }, listen));
  await Promise.all(opened.map((o) => new Promise((r) => o.server.close(r))));
  return opened.map((o) => o.port);
}

const database = await createTestDatabase();
const open = await Promise.all(Array.from({ length: LISTENERS }, listen));
const closed = await closedPorts(LISTENERS);
try {
  for (let start = 0; start < TOTAL; start += 500) {
    const rows = Array.from({ length: Math.min(500, TOTAL - start) }, (_, k) => {
      const i = start + k;
      const up = i % 2 === 0;
      return {
        name: `bench-${String(i).padStart(5, '0')}`,
        ipAddress: '127.0.0.1',
        monitorPort: up ? open[i % LISTENERS].port : closed[i % LISTENERS],
        environment: (['production', 'staging', 'development'] as const)[i % 3],
        status: 'unknown' as const,
      };
    });
    await database.db.insert(servers).values(rows);
  }
  console.log(
    `${TOTAL} servers (${TOTAL / 2} on ${LISTENERS} open listeners, ${TOTAL / 2} on closed ports), database: ${database.kind}, concurrency 20`,
  );
  for (const label of ['first round (every status changes: history + audit)', 'second round (steady state)']) {
    const r = await checkAllServers(database.db, { concurrency: 20 });
    const rate = Math.round((r.checked / r.durationMs) * 1000);
    console.log(
      `${label}: ${r.durationMs} ms for ${r.checked} servers (${r.online} online, ${r.warning} warning, ${r.offline} offline), ${rate} servers/s`,
    );
  }
} finally {
  for (const o of open) o.server.close();
  await database.close();
}
