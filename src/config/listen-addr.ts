import { ConfigError } from './config-error.js';

/** A TCP listen address split for `server.listen({ host, port })`. */
export interface ListenAddr {
  /** IPv6 hosts come without their brackets ('::'), as net.Server expects. */
  host: string;
  /** 0 asks the system for a free port (tests). */
  port: number;
}

const MAX_PORT = 65_535;

/** Splits "host:port" or "[ipv6]:port"; throws a ConfigError naming the text when it is not one. */
export function parseListenAddr(text: string): ListenAddr {
  const match = /^(?:\[([0-9A-Fa-f:.]+(?:%[\w.-]+)?)\]|([^\s:[\]/]+)):(\d{1,5})$/.exec(text);
  const port = match === null ? NaN : Number(match[3]);
  const host = match?.[1] ?? match?.[2];
  if (match === null || host === undefined || port > MAX_PORT) {
    throw new ConfigError(`invalid listen address ${JSON.stringify(text)}: expected host:port with a port within 0..=${MAX_PORT}`);
  }
  return { host, port };
}
