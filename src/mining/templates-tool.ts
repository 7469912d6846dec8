/** The developer tool `svc templates FILE`: the template of each input line, in input order. */
import { templateText, type Cluster } from './drain.js';
import { DEFAULT_MINER_OPTIONS, LogMiner, type MinerOptions } from './miner.js';

export interface LineTemplate {
  template_id: string;
  template: string;
}

/**
 * Mines lines one at a time as one service and gives each line's output JSON line (with its
 * newline) as its template stands when the line is mined, so output can stream while memory stays
 * bounded by the templates, not the input. The JSON text of a template is cached and rebuilt only
 * when the template's leaf changed (the only time its text can have changed).
 */
export class TemplateLines {
  readonly miner: LogMiner;
  private readonly json = new Map<Cluster, { version: number; text: string }>();

  constructor(
    options: MinerOptions = DEFAULT_MINER_OPTIONS,
    readonly service = 'file',
  ) {
    this.miner = new LogMiner(options);
  }

  /** `{"template_id":"…","template":"…"}\n` for one input line. */
  next(line: string): string {
    const cluster = this.miner.mine(this.service, line);
    const version = cluster.leaf === null ? 0 : cluster.leaf.version;
    const cached = this.json.get(cluster);
    if (cached !== undefined && cached.version === version) return cached.text;
    const text = `${JSON.stringify({ template_id: cluster.id, template: templateText(cluster) })}\n`;
    this.json.set(cluster, { version, text });
    return text;
  }
}

/** Each line's template as it stands when the line is mined (what the CLI streams). */
export function templatesForLines(lines: Iterable<string>, options: MinerOptions = DEFAULT_MINER_OPTIONS, service = 'file'): LineTemplate[] {
  const tool = new TemplateLines(options, service);
  const out: LineTemplate[] = [];
  for (const line of lines) out.push(JSON.parse(tool.next(line)) as LineTemplate);
  return out;
}
