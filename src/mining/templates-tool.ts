/** The developer tool `svc templates FILE`: the template of each input line, in input order. */
import { templateText } from './drain.js';
import { DEFAULT_MINER_OPTIONS, LogMiner, type MinerOptions } from './miner.js';

export interface LineTemplate {
  template_id: string;
  template: string;
}

/**
 * Mines all lines as one service, then reports each line's template as it stands after the
 * whole input (so lines of one template print the same text). The CLI prints one JSON object
 * per element.
 */
export function templatesForLines(lines: Iterable<string>, options: MinerOptions = DEFAULT_MINER_OPTIONS, service = 'file'): LineTemplate[] {
  const miner = new LogMiner(options);
  const clusters = [];
  for (const line of lines) clusters.push(miner.mine(service, line));
  return clusters.map((c) => ({ template_id: c.id, template: templateText(c) }));
}
