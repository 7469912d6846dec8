import { fencedBlocks, type FencedBlock } from './fenced-blocks.test-support.js';

/** The pages that give a Collector configuration, each a complete file a user can paste. */
export const COLLECTOR_CONFIG_PAGES = ['getting-started.md', 'collector-kafka.md'] as const;

/** Every YAML block of those pages: each is a whole Collector configuration. */
export function documentedCollectorConfigs(): FencedBlock[] {
  return COLLECTOR_CONFIG_PAGES.flatMap((page) => fencedBlocks(page).filter((block) => block.lang === 'yaml'));
}

/** The collector-kafka page's configuration with the broker and the receiver's addresses of a test run. */
export function collectorKafkaConfig(brokers: string, grpcAddr: string, httpAddr: string): string {
  const [block] = fencedBlocks('collector-kafka.md').filter((candidate) => candidate.lang === 'yaml');
  if (block === undefined) throw new Error('docs/collector-kafka.md has no yaml block');
  const replacements: [string, string][] = [
    ['[kafka:9092]', `[${brokers}]`],
    ['endpoint: 0.0.0.0:4317', `endpoint: ${grpcAddr}`],
    ['endpoint: 0.0.0.0:4318', `endpoint: ${httpAddr}`],
  ];
  let text = block.text;
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`docs/collector-kafka.md's configuration no longer has ${from}`);
    text = text.split(from).join(to);
  }
  return text;
}
