/**
 * Masks the variable parts of a root-cause message so that one failure groups under one fingerprint
 * whatever ids and numbers it carries.
 */

export const MASK = '<*>';

/**
 * One pass, alternatives tried left to right at each position:
 * 1. a UUID (before the hex rule, which would stop at its first dash);
 * 2. `0x` and hex digits: a hexadecimal literal of any length is a number;
 * 3. a bare hex run of 8+ characters standing alone (not glued to other letters or digits, so that
 *    words are never cut in the middle);
 * 4. a number, with an optional decimal part, anywhere (also inside words such as `user42`).
 */
const VARIABLE_PARTS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|0x[0-9a-f]+|(?<![0-9a-z])[0-9a-f]{8,}(?![0-9a-z])|[0-9]+(?:\.[0-9]+)?/gi;

/** The message with UUIDs, hex runs of 8+ characters (with or without 0x) and numbers as `<*>`. */
export function maskMessage(message: string): string {
  return message.replace(VARIABLE_PARTS, MASK);
}
