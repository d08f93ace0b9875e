import { createTestApp, type TestContext } from './app';
import { startMailListener } from '../../src/mail/listener';
import { freePort, listen } from './browser';

export interface RunningApp extends TestContext {
  url: string;
  stop(): Promise<void>;
}

/** The real app on a fresh database, listening on loopback, APP_URL set to its own address. */
export async function startApp(
  env: Record<string, string> = {},
  extend?: (ctx: TestContext) => void,
): Promise<RunningApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const ctx = await createTestApp({ APP_URL: url, ...env });
  extend?.(ctx);
  const mail = await startMailListener(ctx.database, { config: ctx.config, logger: ctx.deps.logger });
  const server = await listen(ctx.app.fetch, port);
  return {
    ...ctx,
    url,
    stop: async () => {
      await server.close();
      await mail.stop();
      await ctx.close();
    },
  };
}
