import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { allow, publicRoute } from '../auth/policy';
import { forbidden, notFound, tooLarge, unsupportedMedia } from '../http/errors';
import { validate } from '../http/validate';
import { isUuid } from '../knowledge/service';
import { getObject, maySeeObject, saveObject, setVisibility } from './service';
import { signUploadUrl, verifyUploadUrl } from './signing';
import { declaredTypeMatches, sniffImage } from './sniff';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const ID_IN_URL =
  /\/(?:api\/objects\/put|objects)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#]|$)/i;

const aclInput = z.object({
  imageURL: z.string({ error: 'imageURL is required.' }).min(1, 'imageURL is required.').max(2000),
  visibility: z.enum(['public', 'private'], { error: 'visibility must be public or private.' }).default('public'),
});

const imageLimit = bodyLimit({
  maxSize: MAX_IMAGE_BYTES,
  onError: () => {
    throw tooLarge('Images can be at most 10 MB.');
  },
});

/** The image PUT: bytes under their own 10 MB limit, so the app's 5 MB body limit and text checks skip it. */
export const isImageUpload = (path: string) => path.startsWith('/api/objects/put/');

/** Image uploads (editors and admins): signed upload URL → PUT the bytes → set the ACL → served at /objects/:id. */
export function objectRoutes() {
  const app = new Hono<AppEnv>();

  app.post('/api/objects/upload', allow('content.write'), (c) =>
    c.json({ uploadURL: signUploadUrl(c.var.deps.secret, randomUUID(), c.var.user!.id) }),
  );

  app.put(
    '/api/objects/put/:id',
    allow('content.write'),
    async (c, next) => {
      const id = c.req.param('id');
      const { exp, sig } = c.req.query();
      if (!isUuid(id) || !verifyUploadUrl(c.var.deps.secret, id, c.var.user!.id, exp, sig)) {
        throw forbidden('This upload URL is invalid or has expired.', 'bad_upload_url');
      }
      const length = Number(c.req.header('content-length'));
      if (length > MAX_IMAGE_BYTES) throw tooLarge('Images can be at most 10 MB.');
      await next();
    },
    imageLimit,
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      const type = sniffImage(bytes);
      if (!type) throw unsupportedMedia('Only PNG, JPEG, GIF and WebP images can be uploaded.');
      if (!declaredTypeMatches(c.req.header('content-type'), type)) {
        throw unsupportedMedia(`The file is ${type}, not ${c.req.header('content-type')}.`);
      }
      await saveObject(c.var.deps.db, c.req.param('id'), c.var.user!.id, type, bytes);
      return c.json({ id: c.req.param('id'), contentType: type, size: bytes.byteLength });
    },
  );

  app.put('/api/objects/acl', allow('content.write'), validate('json', aclInput), async (c) => {
    const { imageURL, visibility } = c.req.valid('json');
    const id = ID_IN_URL.exec(imageURL)?.[1];
    if (!id) throw notFound('Image not found.');
    return c.json({ objectPath: await setVisibility(c.var.deps.db, id.toLowerCase(), visibility, c.var.user!) });
  });

  app.get('/objects/:id', publicRoute(), async (c) => {
    const id = c.req.param('id');
    const object = isUuid(id) ? await getObject(c.var.deps.db, id) : null;
    if (!object || !maySeeObject(object, c.var.user)) throw notFound('Image not found.');
    c.header('Content-Type', object.contentType);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Disposition', 'inline');
    c.header('Content-Security-Policy', "default-src 'none'; sandbox");
    c.header('Cache-Control', `${object.visibility === 'public' ? 'public' : 'private'}, max-age=31536000, immutable`);
    c.header('ETag', `"${id}"`);
    if (c.req.header('if-none-match') === `"${id}"`) return c.body(null, 304);
    return c.body(new Uint8Array(object.data));
  });

  return app;
}
