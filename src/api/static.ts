import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule } from './server.js';
import { isApiPath } from './connection-errors.js';

/** Hashed asset names never change content, so browsers may keep them for a year. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** index.html names the current hashed assets, so it must be revalidated on every load. */
export const INDEX_CACHE_CONTROL = 'no-cache';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built web app: `/assets/*` from `<webDistDir>/assets` with the immutable cache header,
 * and `index.html` (no-cache) for every other GET/HEAD outside `/api/`, so client routes and unknown
 * client paths load the app, which shows its own not-found page. A missing asset and any `/api/`
 * path fall through to the server's not-found handler (JSON 404).
 */
export function registerStatic(app: FastifyInstance, webDistDir: string): void {
  const assetsDir = path.resolve(webDistDir, 'assets');
  const indexFile = path.resolve(webDistDir, 'index.html');

  app.get<{ Params: { '*': string } }>('/assets/*', async (request, reply) => {
    const file = await resolveAsset(assetsDir, request.params['*']);
    if (file === null) return reply.callNotFound();
    const type = CONTENT_TYPES[path.extname(file.path).toLowerCase()] ?? 'application/octet-stream';
    return reply.header('cache-control', ASSET_CACHE_CONTROL).header('content-length', file.size).type(type).send(createReadStream(file.path));
  });

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(request.url)) return reply.callNotFound();
    let html: Buffer;
    try {
      // Read per request (a few hundred bytes): a rebuilt app is served without a restart.
      html = await readFile(indexFile);
    } catch {
      return reply
        .code(503)
        .header('cache-control', INDEX_CACHE_CONTROL)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run `npm run build` in web/.\n');
    }
    return reply.header('cache-control', INDEX_CACHE_CONTROL).type('text/html; charset=utf-8').send(html);
  };
  // find-my-way ranks static and parametric routes above this wildcard, so API routes keep priority.
  app.get('/', sendIndex);
  app.get('/*', sendIndex);
}

/** The file under `assetsDir` named by a request path, or null when absent or outside the folder. */
async function resolveAsset(assetsDir: string, requested: string): Promise<{ path: string; size: number } | null> {
  // Fastify has already percent-decoded the wildcard parameter; decoding again would be wrong.
  const name = requested;
  if (name === '' || name.includes('\0')) return null;
  const file = path.resolve(assetsDir, name);
  // Refuse `..` escapes: only files inside the assets folder are served.
  if (!file.startsWith(assetsDir + path.sep)) return null;
  try {
    const info = await stat(file);
    return info.isFile() ? { path: file, size: info.size } : null;
  } catch {
    return null;
  }
}

/** The same registration shaped as a `RouteModule` for `createApi({ routes: [...] })`. */
export function staticRoutes(webDistDir: string): RouteModule {
  return (app) => registerStatic(app, webDistDir);
}
