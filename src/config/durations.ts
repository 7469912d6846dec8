const SECONDS_PER_UNIT: Readonly<Record<'s' | 'm' | 'h' | 'd', number>> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/**
 * Parses "<n>s", "<n>m", "<n>h" or "<n>d" (n a non-negative decimal integer) into seconds.
 * Returns null when the text has another shape; range rules (above 0, at most 365d) belong to the
 * caller, which knows the setting they apply to.
 */
export function parseDurationSecs(text: string): number | null {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (match === null) return null;
  const secs = Number(match[1]) * SECONDS_PER_UNIT[match[2] as keyof typeof SECONDS_PER_UNIT];
  return Number.isSafeInteger(secs) ? secs : null;
}
