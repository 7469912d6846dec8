import { createServer } from 'node:net';
import { parseListenAddr } from '../config/listen-addr.js';
import { listenError } from '../config/listen-error.js';

/**
 * Binds `address` for a moment and lets it go, so a split component whose port is taken stops
 * with the one-line start-up error before it contacts the broker or the database (which may be
 * down too, and would otherwise be reported first). The real bind later maps its errors the same way.
 */
export async function probeListen(setting: string, address: string): Promise<void> {
  const listen = parseListenAddr(address);
  if (listen.port === 0) return;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(setting, listen, error)));
    server.listen({ host: listen.host, port: listen.port, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
