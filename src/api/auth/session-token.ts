import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Session cookies are stateless: `base64url(username|expiresAtSecs).base64url(HMAC-SHA256)`.
 * The username cannot contain `|` (checked at start-up), so the payload splits unambiguously.
 */
export function signSession(username: string, expiresAtSecs: number, key: Buffer): string {
  const payload = Buffer.from(`${username}|${expiresAtSecs}`, 'utf8').toString('base64url');
  return `${payload}.${mac(payload, key)}`;
}

/** The username of a valid, unexpired token, else null. */
export function verifySession(token: string, key: Buffer, nowSecs: number): string | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  // The signature's text is compared, not its decoded bytes: Node's base64url decoding skips
  // padding and stray characters, so `<sig>=` or `<sig>!!` would decode to the same bytes. Only the
  // exact encoding signSession issues passes.
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(mac(payload, key), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [username, expiresText] = Buffer.from(payload, 'base64url').toString('utf8').split('|');
  const expiresAtSecs = Number(expiresText);
  if (username === undefined || !Number.isFinite(expiresAtSecs) || expiresAtSecs <= nowSecs) return null;
  return username;
}

function mac(payload: string, key: Buffer): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}
