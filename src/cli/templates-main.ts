/**
 * Entry of `svc templates` alone (bin/svc.js picks it for that command): the full CLI module loads
 * every component, the embedded database among them, which costs seconds of start-up that a tool
 * run over a file or a pipe should not pay. Exit statuses and messages are those of the CLI.
 */
import { reportFailure } from './report-failure.js';
import { runTemplates } from '../templates/templates.js';

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    return await runTemplates(argv.slice(1), env);
  } catch (error) {
    return reportFailure(error);
  }
}
