/**
 * Logs each kind of trouble once per component instance. A flood (every record of a bad producer,
 * every alert past a full queue) would otherwise bury the log; the component's counter still
 * counts every occurrence, and the message says so.
 */
export type LogOnce = (key: string, log: () => void) => void;

/** A fresh memory of what was logged: `log` runs the first time its `key` is seen, never again. */
export function createLogOnce(): LogOnce {
  const logged = new Set<string>();
  return (key, log) => {
    if (logged.has(key)) return;
    logged.add(key);
    log();
  };
}
