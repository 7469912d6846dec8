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

/** Every key peerOf reads, each with its slot in `found`. */
const KEYS = ['peer.service', 'db.system.name', 'db.system', ...DB_NAME_KEYS, ...ADDRESS_KEYS, ...URL_KEYS] as const;
type PeerKey = (typeof KEYS)[number];
const SLOT_OF = new Map<string, number>(KEYS.map((key, slot) => [key, slot]));
const SLOT = Object.fromEntries(SLOT_OF) as Record<PeerKey, number>;

/**
 * The values of KEYS read from one span's attributes, reused by every call: one pass over the
 * attributes fills it, where a Map of all of them per client span was a twentieth of the main
 * thread's allocations under load (the assembler analyses every closed trace).
 */
const found: (AttrValue | undefined)[] = KEYS.map(() => undefined);

/** The callee's name, or '' when the span says nothing about it. */
export function peerOf(span: SpanRow): string {
  found.fill(undefined);
  // A key given twice counts with its last value, as a Map of the attributes would have it.
  for (const [key, value] of span.attrs) {
    const slot = SLOT_OF.get(key);
    if (slot !== undefined) found[slot] = value;
  }
  const declared = text('peer.service');
  if (declared !== '') return declared;
  const dbSystem = text('db.system.name') || text('db.system');
  if (dbSystem !== '') {
    for (const key of DB_NAME_KEYS) {
      const name = text(key);
      if (name !== '') return `${dbSystem}:${name}`;
    }
    return dbSystem;
  }
  for (const key of ADDRESS_KEYS) {
    const value = text(key);
    if (value !== '') return value;
  }
  for (const key of URL_KEYS) {
    const host = hostOf(text(key));
    if (host !== '') return host;
  }
  return '';
}

/** The trimmed string value of `key` in `found`, '' when absent or not a string. */
function text(key: PeerKey): string {
  const value = found[SLOT[key]];
  return typeof value === 'string' ? value.trim() : '';
}

function hostOf(url: string): string {
  if (url === '') return '';
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url);
  return match?.[1] ?? '';
}
