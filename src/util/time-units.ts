/** Time units, defined once: names carry their unit (`MINUTE_MS` is a minute in milliseconds). */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
export const HOUR_SECS = 3_600;
export const DAY_SECS = 86_400;
export const MINUTES_PER_DAY = 1_440;
/** Nanoseconds per millisecond, as a number (durations in ms from ns fit a double). */
export const NS_PER_MS = 1_000_000;
export const NS_PER_MINUTE = 60_000_000_000n;
