import { isIPv6 } from 'node:net';

export const MAX_ATTEMPTS = 5;
export const ATTEMPT_WINDOW_MS = 5 * 60 * 1000;
/** Bounds the limiter's memory under a flood of distinct addresses. */
const MAX_TRACKED_CLIENTS = 100_000;

/**
 * Password checks per client: 5 per 5 minutes, counted before the check, cleared by a success.
 * IPv6 clients are grouped by /64 (one host usually owns a whole /64).
 */
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** Counts an attempt; returns the seconds to wait when over the limit, else 0. */
  take(address: string): number {
    const key = clientKey(address);
    const now = this.nowMs();
    const recent = (this.attempts.get(key) ?? []).filter((atMs) => now - atMs < ATTEMPT_WINDOW_MS);
    if (recent.length >= MAX_ATTEMPTS) {
      this.attempts.set(key, recent);
      return Math.max(1, Math.ceil((recent[0] + ATTEMPT_WINDOW_MS - now) / 1000));
    }
    recent.push(now);
    if (!this.attempts.has(key) && this.attempts.size >= MAX_TRACKED_CLIENTS) this.evictOldest();
    this.attempts.set(key, recent);
    return 0;
  }

  /** A successful check clears the client's count. */
  clear(address: string): void {
    this.attempts.delete(clientKey(address));
  }

  private evictOldest(): void {
    const first = this.attempts.keys().next();
    if (!first.done) this.attempts.delete(first.value);
  }
}

/** The limiter key: the IPv4 address, or the /64 prefix of an IPv6 address (IPv4-mapped ones as IPv4). */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1];
  if (!isIPv6(address)) return address;
  return expandIPv6(address).slice(0, 4).join(':') + '::/64';
}

function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0];
  const [head, tail] = withoutZone.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array(Math.max(0, missing)).fill('0'), ...tailParts];
  return parts.map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''));
}
