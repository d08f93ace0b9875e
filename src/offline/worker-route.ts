import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import { publicRoute } from '../auth/policy';
import { MANIFEST_URL } from './api';

/**
 * The one service worker of the app, at /sw.js so that its scope is the whole app (a browser allows one worker per
 * scope): the push handlers (static/sw.js, issue 22) followed by the offline pack (worker.js answers, worker-pack.js saves). Pages link only the
 * registration line in boot.js; the worker itself is loaded by the browser, never by a page.
 */
export const serviceWorkerSource = [
  path.resolve(import.meta.dirname, '../../static/sw.js'),
  path.resolve(import.meta.dirname, 'worker.js'),
  path.resolve(import.meta.dirname, 'worker-pack.js'),
]
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');

const etag = `"${createHash('sha256').update(serviceWorkerSource).digest('base64url').slice(0, 22)}"`;

/** Installable: name, icon, start page and scope, standalone display. */
const manifest = JSON.stringify({
  name: 'Ops Hub',
  short_name: 'Ops Hub',
  description: 'Runbooks, servers and the team: readable offline once kept.',
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#f6f7f9',
  theme_color: '#2563eb',
  icons: [{ src: '/static/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
});

/** GET /sw.js (scope `/`, never from the HTTP cache unchecked) and GET /manifest.webmanifest. */
export function workerRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/sw.js', publicRoute(), (c) => {
    const headers = {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
      // Exactly the scope it registers for (its own folder: the header only says so).
      'Service-Worker-Allowed': '/',
      ETag: etag,
    };
    const asked = c.req.header('If-None-Match')?.replace(/^W\//, '');
    if (asked === etag) return c.body(null, 304, headers);
    return c.body(serviceWorkerSource, 200, headers);
  });
  app.get(MANIFEST_URL, publicRoute(), (c) =>
    c.body(manifest, 200, {
      'Content-Type': 'application/manifest+json; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  );
  return app;
}
