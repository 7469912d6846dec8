/**
 * A clock whose readings strictly increase, for the version column of a ReplacingMergeTree table:
 * the row with the greatest version wins, so two writes in one millisecond must not tie, and a
 * later state must never lose to an earlier one when the wall clock steps back.
 */
export function createVersionClock(nowMs: () => number): () => number {
  let lastMs = 0;
  return () => (lastMs = Math.max(nowMs(), lastMs + 1));
}
