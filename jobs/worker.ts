/**
 * `npm run worker`: runs the scheduled jobs against PostgreSQL (any number of workers; advisory locks keep runs
 * single, except the health-check round, which every worker shares by claiming batches of servers).
 */
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig, type Config } from '../src/config';
import { openPostgres, queryRows } from '../src/db/client';
import { createLogger } from '../src/http/logger';
import { allJobs } from './index';
import { createScheduler } from './scheduler';
import { setEmbeddingsEndpoint } from '../src/embeddings/service';
import { startEmbeddingsListener } from './embeddings-listener';

/** How long a running job may take to finish after SIGTERM (the whole shutdown stays within ~10 s). */
const SHUTDOWN_TIMEOUT_MS = 9_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

async function main() {
  const config = readConfig();
  if (!config.databaseUrl) {
    fail(
      'npm run worker needs DATABASE_URL: with the embedded database (PGlite) the jobs run inside the web process (JOBS=inline).',
    );
  }
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  const database = openPostgres(config.databaseUrl, { max: config.databasePoolMax });
  const [table] = await queryRows<{ name: string | null }>(
    database.db,
    sql`select to_regclass('public.job_runs')::text as name`,
  );
  if (!table?.name) {
    await database.close();
    fail(
      'The database has no Ops Hub tables yet: start the web process once (it runs the migrations), then the worker.',
    );
  }

  setEmbeddingsEndpoint(config.embeddings, logger);
  const scheduler = createScheduler({ database, config, logger, jobs: allJobs });
  const scheduled = scheduler.start();
  // A saved item is embedded for search by meaning within seconds, not at the job's next minute.
  const embeddings = config.embeddings ? await startEmbeddingsListener(database, logger) : undefined;
  const schedules = Object.fromEntries(allJobs.map((j) => [j.name, j.schedule(config)]));
  logger.info({ schedules, scheduled }, `Ops Hub worker started (${scheduled.length} jobs scheduled)`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping: no new runs, waiting for the running job');
    const [{ abandoned }] = await Promise.all([scheduler.stop(SHUTDOWN_TIMEOUT_MS), embeddings?.stop()]);
    if (abandoned.length)
      logger.warn({ abandoned }, 'jobs did not finish in time; abandoned (their open transactions roll back)');
    // An abandoned job still holds pooled connections: end them now, which rolls back its open transaction.
    await database.close(abandoned.length ? 0 : 5_000).catch((err) => logger.error({ err }, 'database close failed'));
    logger.info('worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error('Ops Hub worker failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
