import { reportFailure } from './cli/report-failure.js';
import { runAllInOne } from './cli/all-in-one.js';
import { runDemo } from './cli/demo.js';
import { runHashPassword } from './cli/hash-password.js';
import { runMcp } from './cli/mcp.js';
import { runMigrate } from './cli/migrate.js';
import { runRemine } from './cli/remine.js';
import { runTemplates } from './templates/templates.js';
import { isSplitComponent, runSplit } from './cli/split.js';

const USAGE = `usage: svc <command>

try it:
  demo              a simulated online shop with faults that come and go, sent to svc all-in-one
                    (started for you) or to a running svc; see svc demo --help

components:
  all-in-one        every component in one process, embedded ClickHouse and bus (the default)

scale-out (each needs kafka.brokers; all but ingest need clickhouse.url):
  ingest            OTLP gRPC and HTTP receiver
  writer            stores raw spans and logs
  writer migrate    creates or upgrades the schema and exits
  assembler         closes traces and writes stories
  logminer          mines log templates and raises alerts
  notifier          delivers alerts
  api               web app and JSON API

developer tools:
  hash-password     prints an Argon2id hash of a password (prompted, or the first line of stdin)
  templates FILE    mines FILE's lines; prints {"template_id","template"} per line
  remine            re-mines the stored logs of the last 3 days under the current masking

agents:
  mcp [--url URL]   the MCP tools over stdio, reading a running svc's API (SVC_MCP_URL, default
                    http://127.0.0.1:8090; credentials SVC_MCP_USERNAME, SVC_MCP_PASSWORD)

settings: a TOML file named by SVC_CONFIG, overridden by SVC__SECTION__KEY variables.`;

/** The CLI: the only place that decides exit statuses. Returns the status. */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'all-in-one':
        return await runAllInOne(env);
      case 'writer':
        if (rest[0] === 'migrate') return await runMigrate(env);
        if (rest.length > 0) break;
        return await runSplit('writer', env);
      case 'hash-password':
        return await runHashPassword();
      case 'remine':
        return await runRemine(rest, env);
      case 'templates':
        return await runTemplates(rest, env);
      case 'mcp':
        return await runMcp(rest, env);
      case 'demo':
        return await runDemo(rest, env);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
    }
    if (command !== 'writer' && isSplitComponent(command) && rest.length === 0) return await runSplit(command, env);
    process.stderr.write(`svc: unknown command ${JSON.stringify(command)}\n${USAGE}\n`);
    return 2;
  } catch (error) {
    return reportFailure(error);
  }
}
