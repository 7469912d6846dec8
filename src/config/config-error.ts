/**
 * A start-up error: a bad or missing setting. The CLI prints the message as is and exits non-zero,
 * so the message alone must name the setting and what is accepted (the contract's "Errors" wording).
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(message: string) {
    super(message);
  }
}
