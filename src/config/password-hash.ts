import { parseOptions } from '@node-rs/argon2';

const ARGON2ID_PREFIX = '$argon2id$';

/**
 * True for an Argon2id PHC string the login check can verify. Parsing with the verifier's own
 * parser (no hashing, so no start-up cost) refuses exactly what it would refuse later: plain
 * passwords, bad base64, too short salts, out-of-range costs.
 */
export function isArgon2idPhc(text: string): boolean {
  if (!text.startsWith(ARGON2ID_PREFIX)) return false;
  try {
    parseOptions(text);
    return true;
  } catch {
    return false;
  }
}
