import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from './route-marks';
import { iconSprite, iconSpriteUrl } from '../ui/icons';

const staticDir = path.resolve(import.meta.dirname, '../../static');

/** /static/build/* (hashed, precompressed, immutable for a year), the icon sprite, and /static/* (short cache). */
export function staticRoutes(buildDir: string) {
  const app = new Hono<AppEnv>();
  app.get(iconSpriteUrl, publicRoute(), (c) =>
    c.body(iconSprite, 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );
  app.use('/static/*', publicRoute());
  // The build's own records (manifest, esbuild metafile, input stamp) name source files: server-side only.
  app.get('/static/build/*', async (c, next) => (/\.json(\.gz|\.br)?$/.test(c.req.path) ? c.notFound() : next()));
  app.use('/static/build/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
  });
  app.use(
    '/static/build/*',
    serveStatic({ root: buildDir, precompressed: true, rewriteRequestPath: (p) => p.replace(/^\/static\/build/, '') }),
  );
  app.use('/static/*', async (c, next) => {
    await next();
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=3600');
  });
  app.use('/static/*', serveStatic({ root: staticDir, rewriteRequestPath: (p) => p.replace(/^\/static/, '') }));
  return app;
}
