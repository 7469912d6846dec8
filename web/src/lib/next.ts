/** `next` must be a path inside the app (not `//host` or a URL); anything else lands on `/`. */
export function safeNext(next: string): string {
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith('/api/') || next.startsWith('/login')) return '/';
  return next;
}
