/** HMAC-SHA256 wants a key at least as long as its output. */
export const MIN_SESSION_KEY_BYTES = 32;

// Standard or URL-safe alphabet, optional padding; Buffer.from would otherwise skip stray characters.
const BASE64_TEXT = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Decodes a base64 session key; null when the text is not base64 or decodes to under 32 bytes. */
export function decodeSessionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const unpaddedLength = trimmed.replace(/=+$/, '').length;
  if (!BASE64_TEXT.test(trimmed) || unpaddedLength % 4 === 1) return null;
  if (trimmed.includes('=') && trimmed.length % 4 !== 0) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length >= MIN_SESSION_KEY_BYTES ? key : null;
}
