import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { loadSettings } from '../config/load.js';
import { LogMiner, minerOptionsFrom } from '../mining/miner.js';
import { templateText, type Cluster } from '../mining/drain.js';

/**
 * `svc templates FILE`: mines FILE's lines with the configured miner settings and prints, for each
 * input line in order, `{"template_id","template"}` with the template as it stands after the whole
 * file (so equal lines of one group print equal templates). Progress goes to standard error.
 * The service name of every line is the file's base name.
 */
export async function runTemplates(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const file = args[0];
  if (file === undefined || args.length > 1) {
    process.stderr.write('usage: svc templates FILE\n');
    return 2;
  }
  const settings = loadSettings('tool', env);
  const fingerprinter = settings.logminer.fingerprinter === 'gpu' ? 'scalar' : settings.logminer.fingerprinter;
  if (settings.logminer.fingerprinter === 'gpu') process.stderr.write('svc templates: logminer.fingerprinter gpu is not in this build; mining with scalar\n');
  const miner = new LogMiner(minerOptionsFrom({ ...settings.logminer, fingerprinter }));
  const service = basename(file);
  const assigned: Cluster[] = [];
  const startedMs = Date.now();
  let lastProgressMs = startedMs;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      assigned.push(miner.mine(service, line));
      if (Date.now() - lastProgressMs >= 2000) {
        lastProgressMs = Date.now();
        process.stderr.write(`svc templates: ${assigned.length} lines mined, ${miner.templateCount()} templates\n`);
      }
    }
  } catch (error) {
    process.stderr.write(`svc templates: cannot read ${file}: ${(error as Error).message}\n`);
    return 1;
  }
  const out: string[] = [];
  for (const cluster of assigned) out.push(JSON.stringify({ template_id: cluster.id, template: templateText(cluster) }));
  if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
  const seconds = (Date.now() - startedMs) / 1000;
  process.stderr.write(`svc templates: ${assigned.length} lines, ${miner.templateCount()} templates in ${seconds.toFixed(2)} s\n`);
  return 0;
}
