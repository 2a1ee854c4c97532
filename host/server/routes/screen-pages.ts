import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { HostApp } from '../http-deps.js';
import { screenCsp } from '../security-headers.js';

/** Paths that serve the screen page; the page reads its view from the path. */
const SCREEN_ROUTES = ['/table', '/station/:n', '/service'];

/** The screens' page and static files from the built renderer; without it the host still serves the protocol. */
export async function screenPageRoutes(app: HostApp, rendererDir: string, log: Logger): Promise<void> {
  if (!existsSync(rendererDir)) {
    log.warn({ rendererDir }, 'renderer not built: screens are not served (run npm run build:renderer)');
    return;
  }
  await app.register(fastifyStatic, { root: rendererDir, prefix: '/', index: false });
  for (const route of SCREEN_ROUTES) {
    app.get(route, (req, reply) => {
      reply.header('Content-Security-Policy', screenCsp([`ws://${req.headers.host}`]));
      reply.header('Cache-Control', 'no-store');
      return reply.sendFile('index.html', { cacheControl: false });
    });
  }
}
