/**
 * A target's circuit breaker. After FAILURES_TO_OPEN consecutive failed attempts it opens for the
 * cooldown; while open, each new alert gets one attempt and no retry (alerts already being retried
 * keep their attempts), and one success closes it.
 * When the cooldown ends it closes with a fresh count, so normal retries resume.
 */

/** Five failed attempts in a row: one flaky answer never opens it, a down target does within a minute of backoff. */
export const FAILURES_TO_OPEN = 5;

export class Breaker {
  private consecutiveFailures = 0;
  private openUntilMs: number | undefined;

  constructor(
    private readonly cooldownMs: number,
    private readonly nowMs: () => number,
  ) {}

  /** True while open (the cooldown has not ended). */
  isOpen(): boolean {
    if (this.openUntilMs === undefined) return false;
    if (this.nowMs() < this.openUntilMs) return true;
    this.openUntilMs = undefined;
    this.consecutiveFailures = 0;
    return false;
  }

  /** A delivered attempt: closes the breaker. */
  recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.openUntilMs = undefined;
  }

  /** A failed attempt; returns true when this failure opened the breaker. */
  recordFailure(): boolean {
    if (this.isOpen()) return false;
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures < FAILURES_TO_OPEN || this.cooldownMs <= 0) return false;
    this.openUntilMs = this.nowMs() + this.cooldownMs;
    return true;
  }
}
