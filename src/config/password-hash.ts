import { createRequire } from 'node:module';

const ARGON2ID_PREFIX = '$argon2id$';

type ParseOptions = (phc: string) => unknown;
let parseOptions: ParseOptions | null = null;

/**
 * True for an Argon2id PHC string the login check can verify. Parsing with the verifier's own
 * parser (no hashing, so no start-up cost) refuses exactly what it would refuse later: plain
 * passwords, bad base64, too short salts, out-of-range costs. The native module is loaded on the
 * first hash checked: most commands (`svc templates`, components without auth) never need it, and
 * loading it took about a tenth of the tool's start-up.
 */
export function isArgon2idPhc(text: string): boolean {
  if (!text.startsWith(ARGON2ID_PREFIX)) return false;
  parseOptions ??= (createRequire(import.meta.url)('@node-rs/argon2') as { parseOptions: ParseOptions }).parseOptions;
  try {
    parseOptions(text);
    return true;
  } catch {
    return false;
  }
}
