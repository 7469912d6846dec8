import { ConfigError } from '../config/config-error.js';

/** Prints a command's failure as the CLI does (a settings error as one line, anything else with its stack) and returns exit status 1. */
export function reportFailure(error: unknown): number {
  if (error instanceof ConfigError) {
    process.stderr.write(`svc: ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}
