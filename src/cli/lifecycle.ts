import type { Logger } from '../util/log.js';

/** Resolves on the first SIGTERM or SIGINT; a second one exits at once. */
export function waitForStopSignal(logger: Logger): Promise<string> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn({ signal }, 'second stop signal: exiting without draining');
        process.exit(130);
      }
      stopping = true;
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** Closes in the given order, logging but not stopping on a failure, so every buffer gets its chance to drain. */
export async function closeInOrder(logger: Logger, steps: [string, () => Promise<void>][]): Promise<boolean> {
  let clean = true;
  for (const [name, close] of steps) {
    try {
      await close();
    } catch (error) {
      clean = false;
      logger.error({ err: error, component: name }, 'close failed');
    }
  }
  return clean;
}
