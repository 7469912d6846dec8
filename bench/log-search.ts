/**
 * Log search routes and the Explore page over a full logs table (issue 9's targets: over 24 h with
 * 10M logs stored, /api/v1/logs/search p95 <= 300 ms and /api/v1/logs/series p95 <= 500 ms for a text
 * query, a service filter and both; the explorer's first view with 500 rows <= 1 s in chromium).
 *
 * The data set (bench/log-search-data.ts) is built once and reused while the schema stays the same.
 * Each route is asked 20 times through createApi with the load's clock; one table row per URL.
 * The first view is timed as in bench/browser.ts (navigation start to the first frame painted once
 * the list holds 500 rows and draws its first ones; then again until the histogram is drawn too),
 * median of 5 cold loads.
 * Usage: node dist/bench/log-search.js [logs, default 10000000] [search|series|explore: only that]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { configRoutes } from '../src/api/routes/config.js';
import { createLogRoutes } from '../src/api/routes/log-routes.js';
import { createApi, type Api } from '../src/api/server.js';
import { staticRoutes } from '../src/api/static.js';
import { createTraceRepo } from '../src/api/trace-repo.js';
import { launchChromium } from '../src/testing/browser.js';
import { at } from '../src/util/at.js';
import { createLogger } from '../src/util/log.js';
import { firstView, median } from './browser.js';
import { openLogBenchData, TEMPLATE_ID, TEMPLATE_SERVICE, type LogBenchData } from './log-search-data.js';

const RUNS = 20;
const WEB_DIST = join(new URL('../../', import.meta.url).pathname, 'web', 'dist');
const PHRASE = 'gateway%20unreachable';
const FILTERS = [
  '',
  'limit=500',
  'q=timeout',
  `q=${PHRASE}`,
  `service=${TEMPLATE_SERVICE}`,
  `service=${TEMPLATE_SERVICE}&q=${PHRASE}`,
  'severity=error',
  `template_id=${TEMPLATE_ID}`,
];

function quantile(sorted: number[], q: number): number {
  return at(sorted, Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1));
}

function openApi(data: LogBenchData): Api {
  return createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 30 },
    {
      traces: createTraceRepo(data.store, 30),
      registry: new Registry(),
      metricRegistries: [],
      logger: createLogger('silent'),
      routes: [
        createLogRoutes(data.store, { nowMs: () => data.nowMs }),
        configRoutes({ trace_viewer_url: '', grafana_trace_url: '', dashboard_url: '', auth_enabled: false, infra_services: [] }),
        ...(existsSync(join(WEB_DIST, 'index.html')) ? [staticRoutes(WEB_DIST)] : []),
      ],
    },
  );
}

/** One table row per route and filter: median and p95 of RUNS requests, and the rows or total answered. */
async function measureRoutes(api: Api, routes: string[]): Promise<void> {
  console.log('| route | filter | median ms | p95 ms | answered |');
  console.log('|---|---|---|---|---|');
  for (const route of routes) {
    for (const filter of FILTERS) {
      const url = `/api/v1/logs/${route}?since=24h${filter === '' ? '' : `&${filter}`}`;
      const samples: number[] = [];
      let answered = '';
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const response = await api.app.inject({ method: 'GET', url });
        samples.push(performance.now() - started);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
        const body = JSON.parse(response.body) as { logs?: unknown[]; total?: number };
        answered = route === 'search' ? `${body.logs?.length} rows` : `total ${body.total}`;
      }
      samples.sort((a, b) => a - b);
      console.log(
        `| ${route} | ${decodeURIComponent(filter) || '(none)'} | ${median(samples).toFixed(0)} | ${quantile(samples, 0.95).toFixed(0)} | ${answered} |`,
      );
    }
  }
}

/** The Explore page over 24 h: first view with the first 500 rows. */
async function measureExplore(api: Api): Promise<void> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    console.log(`explore first view: skipped, no web build in ${WEB_DIST} (npm --prefix web run build)`);
    return;
  }
  await api.start();
  const address = `http://127.0.0.1:${api.port()}`;
  const browser = await launchChromium();
  try {
    // The list is virtual (only rows in view are drawn): aria-rowcount is how many rows it holds.
    const rows = `document.querySelector('.log-list[aria-rowcount="500"] .log-item') !== null`;
    const histogram = `document.querySelector('.log-histogram') !== null`;
    const views: [string, string][] = [
      ['500 rows', `() => ${rows}`],
      ['500 rows and the histogram', `() => ${rows} && ${histogram}`],
    ];
    for (const [what, ready] of views) {
      // Each load waits for its histogram before the next starts: the engine would still be counting.
      const samples = await firstView(browser, address, '/logs/explore?since=24h', ready, `() => ${histogram}`);
      console.log(
        `explore first view over 24 h, ${what} drawn: median ${median(samples).toFixed(0)} ms (${samples.length} cold loads, ${at(samples, 0).toFixed(0)}..${at(samples, samples.length - 1).toFixed(0)} ms; target <= 1000)`,
      );
    }
  } finally {
    await browser.close();
  }
}

export async function main(argv: string[]): Promise<void> {
  const logs = Number(argv[0] ?? 10_000_000);
  const only = argv[1];
  const data = await openLogBenchData(logs);
  try {
    console.log(`data: ${data.origin}`);
    const api = openApi(data);
    await api.app.ready();
    try {
      const routes = ['search', 'series'].filter((route) => only === undefined || only === route);
      if (routes.length > 0) await measureRoutes(api, routes);
      if (only === undefined || only === 'explore') await measureExplore(api);
    } finally {
      await api.close();
    }
  } finally {
    await data.close();
  }
}

if (process.argv[1]?.endsWith('log-search.js')) await main(process.argv.slice(2));
