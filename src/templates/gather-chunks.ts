/**
 * Gathers the small pieces a pipe gives (64 KiB each on Linux) into chunks of up to `chunkBytes`.
 * Every chunk costs the streaming loop a fixed amount (a message to the fingerprint thread and its
 * answer, a carry copy, a write): from a pipe that overhead was paid 16 times per MiB, and standard
 * input ran at about two thirds of the speed of the same file.
 *
 * A piece is waited for at most `waitMs` once a chunk has begun, so a slow source (`tail -f`) is
 * still mined line by line as it comes, not held until a chunk fills; a fast source refills the pipe
 * well within that time.
 */
export async function* gatherChunks(input: AsyncIterable<Buffer>, chunkBytes: number, waitMs: number): AsyncGenerator<Buffer> {
  const pieces = input[Symbol.asyncIterator]();
  // The read that lost a race with the wait: the next chunk starts with it.
  let pending: Promise<IteratorResult<Buffer>> | null = null;
  try {
    for (;;) {
      const first = await (pending ?? pieces.next());
      pending = null;
      if (first.done === true) return;
      const parts: Buffer[] = [first.value];
      let bytes = first.value.length;
      let ended = false;
      while (bytes < chunkBytes) {
        const next = pieces.next();
        const piece = await withinMs(next, waitMs);
        if (piece === null) {
          pending = next;
          break;
        }
        if (piece.done === true) {
          ended = true;
          break;
        }
        parts.push(piece.value);
        bytes += piece.value.length;
      }
      yield parts.length === 1 ? first.value : Buffer.concat(parts, bytes);
      if (ended) return;
    }
  } finally {
    // Stops the source (closes the file or stream) when the consumer stops early.
    await pieces.return?.();
  }
}

/** The value of `promise`, or null when it takes longer than `ms` (a rejection is passed on). */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  return new Promise<T | null>((resolve, reject) => {
    const timer = setTimeout(() => resolve(null), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
