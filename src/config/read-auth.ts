import { parseDurationSecs } from './durations.js';
import { isArgon2idPhc } from './password-hash.js';
import { fail, type Check, type SettingReader } from './reader.js';
import { decodeSessionKey } from './session-key.js';
import type { AuthSettings } from './settings.js';

const MAX_SESSION_TTL_SECS = 365 * 86_400;
const DEFAULT_SESSION_TTL = '12h';
const DEFAULT_SESSION_TTL_SECS = 12 * 3_600;

const username: Check<string> = (value, path) => (/[|:]/.test(value) ? `${path} must not contain '|' or ':'` : null);

const passwordHash: Check<string> = (value, path) => (value === '' || isArgon2idPhc(value) ? null : `${path} is not a valid PHC string`);

const sessionTtl: Check<string> = (value, path) => {
  const secs = parseDurationSecs(value);
  return secs !== null && secs > 0 && secs <= MAX_SESSION_TTL_SECS ? null : `${path} must be <n>s, <n>m, <n>h or <n>d, above 0 and at most 365d`;
};

// An empty value means unset (a random key per process), as an empty variable usually does.
const sessionKey: Check<string> = (value, path) =>
  value.trim() === '' || decodeSessionKey(value) !== null ? null : `${path} must decode to at least 32 bytes`;

/**
 * [auth]. `enabledReader` reads auth.enabled (strict for components that serve the API);
 * `readerWhenEnabled` picks the reader for the other keys, which are validated only when auth is on.
 */
export function readAuth(enabledReader: SettingReader, readerWhenEnabled: (enabled: boolean) => SettingReader): AuthSettings {
  const enabled = enabledReader.bool('auth.enabled', false);
  const r = readerWhenEnabled(enabled);
  const settings: AuthSettings = {
    enabled,
    username: r.string('auth.username', '', username),
    password_hash: r.string('auth.password_hash', '', passwordHash),
    session_ttl_secs: parseDurationSecs(r.string('auth.session_ttl', DEFAULT_SESSION_TTL, sessionTtl)) ?? DEFAULT_SESSION_TTL_SECS,
    session_key: decodeSessionKey(r.string('auth.session_key', '', sessionKey)),
    secure_cookie: r.bool('auth.secure_cookie', false),
  };
  if (enabled && r.strict) {
    fail(settings.username === '' ? 'auth.username is required when auth.enabled is true' : null);
    fail(settings.password_hash === '' ? 'auth.password_hash is required when auth.enabled is true' : null);
  }
  return settings;
}
