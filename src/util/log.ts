import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']);
const RUST_LEVEL_ALIASES: Record<string, string> = { off: 'silent' };

/**
 * Turns a RUST_LOG-style filter into a pino level. Accepts a bare level (`debug`) or directives
 * (`svc=debug,warn`): a directive naming `svc` wins, otherwise the bare level, otherwise `info`.
 */
export function levelFromFilter(filter: string): string {
  let bare: string | undefined;
  let forSvc: string | undefined;
  for (const directive of filter
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)) {
    const [target, level] = directive.includes('=') ? directive.split('=', 2) : [undefined, directive];
    const normalized = RUST_LEVEL_ALIASES[level ?? ''] ?? level ?? '';
    if (!LEVELS.has(normalized)) continue;
    if (target === undefined) bare = normalized;
    else if (target === 'svc' || target.startsWith('svc::')) forSvc = normalized;
  }
  return forSvc ?? bare ?? 'info';
}

/** The process logger: JSON lines on standard error so that tools keep standard output for data. */
export function createLogger(filter: string, destination: NodeJS.WritableStream = process.stderr): Logger {
  return pino({ level: levelFromFilter(filter), base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination as pino.DestinationStream);
}
