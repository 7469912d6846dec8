import { ConfigError } from './config-error.js';
import type { ListenAddr } from './listen-addr.js';

/** `host:port` as a person writes it in the setting (IPv6 hosts in brackets). */
export function formatListenAddr(listen: ListenAddr): string {
  return listen.host.includes(':') ? `[${listen.host}]:${listen.port}` : `${listen.host}:${listen.port}`;
}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'is in use',
  EADDRNOTAVAIL: 'is not an address of this host',
  EACCES: 'needs privileges this process lacks (ports below 1024)',
};

/** The errno code of a failed listen: net errors carry it; grpc-js only names it in its message. */
function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('E')) return code;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? /\b(EADDRINUSE|EADDRNOTAVAIL|EACCES)\b/.exec(message)?.[1] : undefined;
}

/**
 * A listener that cannot bind, as a start-up error a person can act on: one line naming the
 * setting and the address (`http_addr 0.0.0.0:8090 is in use; ...`). The CLI prints it and exits 1.
 */
export function listenError(setting: string, listen: ListenAddr, error: unknown): ConfigError {
  const address = formatListenAddr(listen);
  const code = errnoCode(error);
  const reason = code === undefined ? undefined : REASONS[code];
  if (reason !== undefined) return new ConfigError(`${setting} ${address} ${reason}; set ${setting} to a free address`);
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new ConfigError(`${setting} ${address} cannot be listened on (${detail.split('\n')[0]})`);
}
