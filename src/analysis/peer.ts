/**
 * The name of what a client span called when no span of the callee arrived: a database, a cache,
 * an outside API, or a service that is down. Taken from the span's attributes in the order that
 * names it most as its callers think of it: the declared peer service, then the database (system and
 * name), then the address (OpenTelemetry semantic conventions, current and older names).
 */
import type { AttrValue, SpanRow } from '../model/signals.js';

const ADDRESS_KEYS = ['server.address', 'net.peer.name', 'network.peer.address', 'net.sock.peer.name', 'rpc.service', 'messaging.destination.name'] as const;
const URL_KEYS = ['url.full', 'http.url'] as const;
const DB_NAME_KEYS = ['db.namespace', 'db.name'] as const;

/** The callee's name, or '' when the span says nothing about it. */
export function peerOf(span: SpanRow): string {
  const attrs = new Map<string, AttrValue>();
  for (const [key, value] of span.attrs) attrs.set(key, value);
  const declared = text(attrs.get('peer.service'));
  if (declared !== '') return declared;
  const dbSystem = text(attrs.get('db.system.name')) || text(attrs.get('db.system'));
  if (dbSystem !== '') {
    for (const key of DB_NAME_KEYS) {
      const name = text(attrs.get(key));
      if (name !== '') return `${dbSystem}:${name}`;
    }
    return dbSystem;
  }
  for (const key of ADDRESS_KEYS) {
    const value = text(attrs.get(key));
    if (value !== '') return value;
  }
  for (const key of URL_KEYS) {
    const host = hostOf(text(attrs.get(key)));
    if (host !== '') return host;
  }
  return '';
}

function text(value: AttrValue | undefined): string {
  return typeof value === 'string' ? value.trim() : '';
}

function hostOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url);
  return match?.[1] ?? '';
}
