/**
 * The rooms of the code and what may depend on what, as docs/architecture.md draws them: every
 * .ts file under src/ is read and its imports checked against the rules below. Tests and test
 * support (`*.test.ts`, `*.test-support.ts`, src/testing/, src/e2e/) may import anything and are
 * not checked; the product may not import them (they are not in the build that ships).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importSpecifiers } from './testing/imports.js';
import { isTestCode } from './testing/test-code.js';

/** The sources, not the build: this file runs from dist/src/. */
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Components: each runs alone in the split deployment, so they talk only through the bus. */
const COMPONENTS = ['ingest', 'writer', 'assembler', 'logminer', 'notifier', 'recorder'];
/** Pure cores: computation only, fed and drained by the components. */
const PURE_CORES = ['analysis', 'mining'];
/** Beyond the cores' own folders, the only modules they may load (types shared with everyone). */
const PURE_SHARED_FILES = [
  'model/signals.ts',
  'model/attr-marks.ts',
  'config/settings.ts',
  'util/at.ts',
  'util/xxhash.ts',
  'util/worker-rpc.ts',
  'util/time-units.ts',
];
/** Packages the cores may use: a hash function, nothing that touches the outside world. */
const PURE_PACKAGES = ['@node-rs/xxhash'];
/** What the API may read from: storage, shared types and helpers, and the pure cores. */
const API_MAY_IMPORT = ['api', 'store', 'model', 'util', 'config', 'analysis', 'mining'];
/** Feature rooms run by the CLI alone. */
const FEATURE_ROOMS = ['mcp', 'templates'];
/** Lower layers every component builds on; they never reach back up. */
const LOWER_LAYERS = ['store', 'bus', 'otlp', 'model', 'util', 'config'];
const UPPER_ROOMS = [...COMPONENTS, 'api', 'cli', ...FEATURE_ROOMS];
/** The MCP server reads the API's own routes, never storage or components: its tools are clients of the API. */
const MCP_MAY_IMPORT = ['mcp', 'api', 'analysis', 'util', 'model'];
/** `svc templates`, the offline template miner: files in, templates out, with the miner and the settings. */
const TEMPLATES_MAY_IMPORT = ['templates', 'mining', 'config', 'util'];
/** The fault simulator: a pure application model over the shared shapes, the OTLP encoders and helpers, run by `svc demo`. */
const SIMULATOR_MAY_IMPORT = ['simulator', 'model', 'otlp', 'util'];

/** Imports that break a rule today, each with the reason it stands. A rule change goes in docs/architecture.md too. */
const EXCEPTIONS: { from: string; to: string; reason: string }[] = [
  {
    from: 'util/worker-rpc.ts',
    to: 'node:worker_threads',
    reason:
      'the parallel miner runs the same pure miner on worker threads through this request/reply helper: messages between threads, no files, sockets or processes.',
  },
  {
    from: 'mining/parallel-worker.ts',
    to: 'node:worker_threads',
    reason: 'the worker side of the parallel miner, as above.',
  },
  {
    from: 'util/xxhash.ts',
    to: 'node:module',
    reason: 'loads @node-rs/xxhash with require (faster than importing the CommonJS package); it loads no file of its own.',
  },
];

/** An import: `to` is a path under src/ for the project's own modules, else the package (`node:fs`, `fastify`). */
interface Edge {
  from: string;
  to: string;
}

const BUILTINS = new Set(builtinModules);

function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return specifier;
  const [first = specifier] = specifier.split('/');
  if (BUILTINS.has(specifier) || BUILTINS.has(first)) return `node:${specifier}`;
  return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : first;
}

/** The edges of a set of sources keyed by their path under src/ (posix separators). */
export function edgesOf(sources: Map<string, string>): Edge[] {
  const edges: Edge[] = [];
  for (const [file, text] of sources) {
    for (const specifier of importSpecifiers(text)) {
      const to = specifier.startsWith('.') ? posix.join(posix.dirname(file), specifier).replace(/\.js$/, '.ts') : packageOf(specifier);
      edges.push({ from: file, to });
    }
  }
  return edges;
}

/** The folder under src/ a file belongs to; src/cli.ts is the CLI's entry point. */
function roomOf(file: string): string {
  return file === 'cli.ts' ? 'cli' : (file.split('/')[0] ?? file);
}

const isOwnModule = (to: string) => to.endsWith('.ts');

/** Every import breaking a rule, described; exceptions are left out. */
export function violations(edges: Edge[]): string[] {
  const found: string[] = [];
  const broken = (edge: Edge, rule: string) => {
    if (!EXCEPTIONS.some((exception) => exception.from === edge.from && exception.to === edge.to)) found.push(`${edge.from} imports ${edge.to}; ${rule}`);
  };
  for (const edge of edges) {
    if (isTestCode(edge.from)) continue;
    const from = roomOf(edge.from);
    const own = isOwnModule(edge.to);
    const to = own ? roomOf(edge.to) : edge.to;
    if (own && isTestCode(edge.to)) broken(edge, 'product code does not import tests or test support');
    if (PURE_CORES.includes(from) || PURE_SHARED_FILES.includes(edge.from)) {
      const pure = own ? PURE_CORES.includes(to) || PURE_SHARED_FILES.includes(edge.to) : PURE_PACKAGES.includes(edge.to);
      if (!pure)
        broken(
          edge,
          'analysis and mining do no I/O: they import only each other, model/signals.ts, model/attr-marks.ts, config/settings.ts, util/at.ts and @node-rs/xxhash',
        );
    }
    if (COMPONENTS.includes(from) && own && to !== from && (COMPONENTS.includes(to) || ['api', 'cli', 'bus'].includes(to))) {
      broken(
        edge,
        'components meet only on the bus: no component imports another component, the API, the CLI or a bus implementation (they are handed a Bus from model/bus.ts)',
      );
    }
    if (from === 'api' && own && !API_MAY_IMPORT.includes(to))
      broken(edge, `the API reads storage, not component state: it imports only ${API_MAY_IMPORT.join(', ')}`);
    if (LOWER_LAYERS.includes(from) && own && UPPER_ROOMS.includes(to)) broken(edge, `${LOWER_LAYERS.join(', ')} never import components, the API or the CLI`);
    if (from !== 'cli' && own && to === 'cli') broken(edge, 'the CLI wires everything together: nothing else imports it');
    if (from === 'mcp' && own && !MCP_MAY_IMPORT.includes(to))
      broken(edge, `the MCP server is a client of the API: it imports only ${MCP_MAY_IMPORT.join(', ')}`);
    if (from === 'templates' && own && !TEMPLATES_MAY_IMPORT.includes(to)) broken(edge, `svc templates imports only ${TEMPLATES_MAY_IMPORT.join(', ')}`);
    if (own && FEATURE_ROOMS.includes(to) && to !== from && from !== 'cli') broken(edge, `${to}/ is a feature the CLI runs: only cli/ imports it`);
    if (from === 'simulator' && (!own || !SIMULATOR_MAY_IMPORT.includes(to))) {
      broken(edge, `the simulator imports only ${SIMULATOR_MAY_IMPORT.join(', ')}: no packages, no node: modules (it sends with the global fetch)`);
    }
    if (own && to === 'simulator' && from !== 'simulator' && from !== 'cli') broken(edge, 'only the CLI (svc demo), tests and benchmarks run the simulator');
  }
  return found;
}

function readSources(): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
        sources.set(relative(SRC, path).split(/[\\/]/).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(SRC);
  return sources;
}

test('the sources keep to the rooms and their dependency rules', () => {
  const sources = readSources();
  assert.ok(sources.size > 100, `read ${sources.size} sources from ${SRC}`);
  for (const room of [...COMPONENTS, ...PURE_CORES, ...LOWER_LAYERS, ...FEATURE_ROOMS, 'api', 'cli', 'simulator']) {
    assert.ok(
      [...sources.keys()].some((file) => roomOf(file) === room),
      `src/${room}/ exists (a room renamed must be renamed here too)`,
    );
  }
  assert.deepEqual(violations(edgesOf(sources)), []);
});

test('a forbidden import is reported, and an exception only excuses its own file', () => {
  const sources = new Map([
    ['mining/drain.ts', "import { readFileSync } from 'node:fs';\nimport type { Store } from '../model/store.js';\nimport xxhash from '@node-rs/xxhash';"],
    ['analysis/tree.ts', "import type { SpanRow } from '../model/signals.js';\nimport { x } from './types.js';"],
    [
      'writer/writer.ts',
      "import { decide } from '../assembler/outputs.js';\nimport { DiskBus } from '../bus/disk/disk-bus.js';\nimport type { Bus } from '../model/bus.js';",
    ],
    ['api/routes/traces.ts', "import { open } from '../../logminer/live-state.js';\nimport { readSpans } from '../../store/spans.js';"],
    ['store/spans.ts', "import { createWriter } from '../writer/writer.js';"],
    ['util/worker-rpc.ts', "import { Worker } from 'node:worker_threads';\nimport { readFileSync } from 'node:fs';"],
    ['otlp/decode.ts', "import { span } from '../testing/otel.js';\nimport { spanProto } from './otlp-fixtures.test-support.js';"],
    ['store/store-suite.test-support.ts', "import { createApi } from '../api/server.js';\nimport { main } from '../cli.js';"],
    ['writer/writer.test.ts', "import { DiskBus } from '../bus/disk/disk-bus.js';\nimport { handle } from '../assembler/assembler.js';"],
    [
      'simulator/send.ts',
      "import { encodeTracesData } from '../otlp/encode-traces.js';\nimport { request } from 'node:http';\nimport { loadSettings } from '../config/load.js';",
    ],
    ['api/routes/demo.ts', "import { createSimulator } from '../../simulator/simulate.js';"],
    ['cli/demo.ts', "import { createSimulator } from '../simulator/simulate.js';"],
    ['mcp/tools/traces.ts', "import { getTraceSpans } from '../../store/spans.js';\nimport { getRoute } from '../api-caller.js';"],
    ['templates/templates.ts', "import { createStore } from '../store/create-store.js';\nimport { LogMiner } from '../mining/miner.js';"],
    ['api/routes/templates.ts', "import { runTemplates } from '../../templates/templates.js';"],
  ]);
  const reported = violations(edgesOf(sources)).map((line) => line.split('; ')[0]);
  assert.deepEqual(reported, [
    'mining/drain.ts imports node:fs',
    'mining/drain.ts imports model/store.ts',
    'writer/writer.ts imports assembler/outputs.ts',
    'writer/writer.ts imports bus/disk/disk-bus.ts',
    'api/routes/traces.ts imports logminer/live-state.ts',
    'store/spans.ts imports writer/writer.ts',
    'util/worker-rpc.ts imports node:fs',
    'otlp/decode.ts imports testing/otel.ts',
    'otlp/decode.ts imports otlp/otlp-fixtures.test-support.ts',
    'simulator/send.ts imports node:http',
    'simulator/send.ts imports config/load.ts',
    'api/routes/demo.ts imports simulator/simulate.ts',
    'api/routes/demo.ts imports simulator/simulate.ts',
    'mcp/tools/traces.ts imports store/spans.ts',
    'templates/templates.ts imports store/create-store.ts',
    'api/routes/templates.ts imports templates/templates.ts',
    'api/routes/templates.ts imports templates/templates.ts',
  ]);
});

test('imports are read from code, not from comments, strings, templates or regular expressions', () => {
  const source = [
    "// import { a } from 'commented-line';",
    "/* import { b } from 'commented-block'; */",
    'import {',
    '  c,',
    '  type D,',
    "} from './multi-line.js';",
    "import type { E } from '../types.js';",
    "import './side-effect.js';",
    "export { f } from './re-export.js';",
    'export * from "./star.js";',
    'const text = "import { g } from \'in-a-string\'";',
    "const tpl = `import { h } from '${'in-a-template'}'`;",
    'const re = /import [\'"]in-a-regex[\'"]/;',
    "const half = 4 / 2; const other = 'x' + \"/'\";",
    "const lazy = await import('./dynamic.js');",
    "Array.from('not-an-import');",
  ].join('\n');
  assert.deepEqual(importSpecifiers(source), ['./multi-line.js', '../types.js', './side-effect.js', './re-export.js', './star.js', './dynamic.js']);
});
