import { randomBytes } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import { serve } from '@hono/node-server';
import { allJobs } from '../jobs/index';
import { startEmbeddingsListener } from '../jobs/embeddings-listener';
import { createScheduler } from '../jobs/scheduler';
import { firstStartNotice } from './admin/first-start';
import { createApp } from './app';
import { holdDataDir, serveBackups } from './backups/service';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { createLogger } from './http/logger';
import { startMailListener } from './mail/listener';
import { loadAssets } from './ui/assets';
import { startWebhookListener } from './webhooks/commands';
import { setEmbeddingsEndpoint } from './embeddings/service';

/** In-flight requests get this long after SIGTERM; the whole stop stays inside Docker's 10 s. */
const SHUTDOWN_TIMEOUT_MS = 7_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** Entry: config → database → migrations → HTTP server (+ jobs inline on PGlite) → graceful shutdown. */
async function main() {
  const config = readConfig();
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  const assets = loadAssets();
  // PGlite has no lock of its own: the web process holds DATA_DIR's control socket, which answers npm run backup.
  const control = await holdDataDir(config);
  const database = await openDatabase(config);
  await runMigrations(database);
  serveBackups(control, database, config);
  const secret = config.appSecret ?? randomBytes(32).toString('hex');
  if (!config.appSecret) logger.warn('APP_SECRET is not set: signed links last only as long as this process');

  setEmbeddingsEndpoint(config.embeddings, logger);
  const app = createApp({ config, database, db: database.db, logger, assets, secret });
  const notice = await firstStartNotice(database.db, config);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info(
      { url: config.appUrl, port: info.port, database: database.kind, jobs: config.jobs },
      `Ops Hub listening on http://${config.host}:${info.port}`,
    );
    if (notice) logger.info(notice);
  });

  const scheduler = config.jobs === 'inline' ? createScheduler({ database, config, logger, jobs: allJobs }) : undefined;
  scheduler?.start();
  // Mail goes out as soon as the transaction that queued it commits (mail/listener.ts).
  const mail = await startMailListener(database, { config, logger });
  // Webhooks too, as soon as the change that queued them commits (webhooks/listener.ts).
  const webhooks = await startWebhookListener(database, { config, logger });
  // Where jobs run here, a saved item is embedded for search by meaning within seconds (jobs/embeddings-listener.ts).
  const embeddings = scheduler && config.embeddings ? await startEmbeddingsListener(database, logger) : undefined;

  const draining = drainOnStop(server as Server);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const jobsStopped = scheduler?.stop(5_000).catch((err) => logger.error({ err }, 'stopping jobs failed'));
    const force = setTimeout(() => {
      logger.warn(`in-flight requests did not finish in ${SHUTDOWN_TIMEOUT_MS / 1000} s; closing anyway`);
      (server as Server).closeAllConnections();
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    draining.stop(async () => {
      clearTimeout(force);
      await jobsStopped;
      await mail.stop();
      await webhooks.stop();
      await embeddings?.stop();
      await database.close().catch((err) => logger.error({ err }, 'database close failed'));
      await control?.close();
      logger.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * Graceful stop for keep-alive clients: server.close() alone stops accepting but keeps serving connections
 * that are busy at that moment, request after request. Once stopping, every response says Connection: close,
 * and each connection is closed as soon as it is idle.
 */
function drainOnStop(server: Server) {
  const inFlight = new Set<ServerResponse>();
  let stopping = false;
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (stopping) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (stopping) server.closeIdleConnections();
    });
  });
  return {
    stop(onClosed: () => void) {
      stopping = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.close(onClosed);
      server.closeIdleConnections();
    },
  };
}

main().catch((err) => {
  console.error('Ops Hub failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
