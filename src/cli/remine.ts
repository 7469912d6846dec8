import { loadSettings } from '../config/load.js';
import { remineStoredLogs } from '../logminer/remine-stored.js';
import { minerOptionsFrom } from '../mining/miner.js';
import { createStore } from '../store/create-store.js';
import { migrate, SKIPPED_STATEMENT_MESSAGE } from '../store/migrate.js';

/** Progress lines at most this often. */
const PROGRESS_MS = 2_000;

/**
 * `svc remine`: re-mines the stored logs of the last 3 days under the current masking (server at
 * clickhouse.url, else the embedded data dir), rewrites templates and hits, and starts a new
 * masking epoch. Progress and the summary go to standard error. Stop the logminer (or
 * all-in-one) first.
 */
export async function runRemine(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (args.length > 0) {
    process.stderr.write('usage: svc remine\n');
    return 2;
  }
  const settings = loadSettings('tool', env);
  // The tool mines in-thread: parallel and gpu give the same templates as scalar.
  const fingerprinter = settings.logminer.fingerprinter === 'off' ? 'off' : 'scalar';
  const options = minerOptionsFrom({ ...settings.logminer, fingerprinter });
  const store = await createStore(settings);
  try {
    await migrate(
      store,
      undefined,
      undefined,
      (skipped) => {
        process.stderr.write(`svc remine: ${SKIPPED_STATEMENT_MESSAGE}: migration ${skipped.version}, code ${skipped.code}: ${skipped.statement}\n`);
      },
      (progress) => {
        process.stderr.write(`svc remine: migration ${progress.version}: ${progress.message} ${JSON.stringify(progress.fields)}\n`);
      },
    );
    const startedMs = Date.now();
    let lastProgressMs = startedMs;
    process.stderr.write('svc remine: re-mining the stored logs of the last 3 days\n');
    const summary = await remineStoredLogs(store, options, startedMs, (logs, templates) => {
      if (Date.now() - lastProgressMs < PROGRESS_MS) return;
      lastProgressMs = Date.now();
      process.stderr.write(`svc remine: ${logs} logs re-mined, ${templates} templates\n`);
    });
    const seconds = (Date.now() - startedMs) / 1000;
    process.stderr.write(
      `svc remine: ${summary.logs} logs, ${summary.templates} templates in ${seconds.toFixed(2)} s; ` +
        `new masking epoch from ${new Date(summary.epochStartMs).toISOString()} (no new-template alerts for 15 minutes)\n`,
    );
  } finally {
    await store.close();
  }
  return 0;
}
