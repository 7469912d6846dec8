/**
 * Refuses new exports while the process's anonymous memory (JS heaps, native buffers and the
 * embedded store's working memory: what cannot be dropped under pressure) is above a bound.
 * The in-flight budget bounds what exports hold while they are read and published; past that,
 * what they cause downstream (traces being assembled, inserts being built, the store merging)
 * grows with the rate admitted. Refusing at once, retryably, while memory is high keeps the whole
 * process within its bound and the answers of admitted exports prompt.
 *
 * Reading memory costs a file read, so it is read at most every `checkEveryMs` and the last
 * figure is used in between. While memory is high, one export is still admitted every
 * `admitEveryMs`, so progress never stops even if memory stays high for reasons of its own.
 * Pure: the clock and the reader are the caller's.
 */
export interface MemoryGateOptions {
  /** Anonymous bytes above which new exports are refused. */
  maxBytes: number;
  /** How long a reading is used before memory is read again. */
  checkEveryMs: number;
  /** While memory is high, one export is admitted at most this often. */
  admitEveryMs: number;
  /** The process's anonymous resident bytes now, or undefined where that cannot be read. */
  readAnonBytes: () => number | undefined;
  nowMs: () => number;
}

export class MemoryGate {
  private readAtMs = Number.NEGATIVE_INFINITY;
  private anonBytes: number | undefined;
  private admittedHighAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: MemoryGateOptions) {}

  /** Whether a new export is refused now; counts the export as admitted when it is not. */
  refuses(): boolean {
    const nowMs = this.options.nowMs();
    if (nowMs - this.readAtMs >= this.options.checkEveryMs) {
      this.anonBytes = this.options.readAnonBytes();
      this.readAtMs = nowMs;
    }
    if (this.anonBytes === undefined || this.anonBytes <= this.options.maxBytes) return false;
    if (nowMs - this.admittedHighAtMs < this.options.admitEveryMs) return true;
    this.admittedHighAtMs = nowMs;
    return false;
  }
}
