/**
 * `npm run bench [suite...]`: runs the benchmark suites and writes each one's section into
 * scripts/bench/RESULTS.md (committed), replacing that suite's previous section only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Suite = () => Promise<string>;

const SUITES: Record<string, () => Promise<Suite>> = {
  build: async () => (await import('./bench/build.js')).runBuildBench,
  validate: async () => (await import(`./bench/${'validate'}.js`)).runValidateBench,
  diff: async () => (await import(`./bench/${'diff'}.js`)).runDiffBench,
  publish: async () => (await import(`./bench/${'publish'}.js`)).runPublishBench,
  serve: async () => (await import(`./bench/${'serve'}.js`)).runServeBench,
  'serve-tls': async () => (await import(`./bench/${'serve-tls'}.js`)).runServeTlsBench,
  scale: async () => (await import(`./bench/${'scale'}.js`)).runScaleBench,
  docs: async () => (await import(`./bench/${'docs'}.js`)).runDocsBench,
  search: async () => (await import(`./bench/${'search'}.js`)).runSearchBench,
  lint: async () => (await import(`./bench/${'lint'}.js`)).runLintBench,
  consumers: async () => (await import(`./bench/${'consumers'}.js`)).runConsumersBench,
  fake: async () => (await import(`./bench/${'fake'}.js`)).runFakeBench,
  twins: async () => (await import(`./bench/${'twins'}.js`)).runTwinsBench,
  instructions: async () => (await import(`./bench/${'instructions'}.js`)).runInstructionsBench,
  cel: async () => (await import(`./bench/${'cel'}.js`)).runCelBench,
  export: async () => (await import(`./bench/${'export'}.js`)).runExportBench,
  migrate: async () => (await import(`./bench/${'migrate'}.js`)).runMigrateBench,
};

const RESULTS = fileURLToPath(new URL('../../scripts/bench/RESULTS.md', import.meta.url));
const HEADER = `# Benchmark results

Written by \`npm run bench\` (one section per suite; \`npm run bench -- <suite>\` reruns one). Figures are
from one run on the machine named in each section; targets are ratios against peers measured in the same
run, so they hold across machines. Never edit by hand.
`;

const wanted = process.argv.slice(2);
const names = wanted.length > 0 ? wanted : Object.keys(SUITES);
let results: string;
try {
  results = readFileSync(RESULTS, 'utf8');
} catch {
  results = HEADER;
}
let failed = false;
for (const name of names) {
  const load = SUITES[name];
  if (!load) {
    console.error(`unknown suite ${name}; suites: ${Object.keys(SUITES).join(', ')}`);
    process.exit(2);
  }
  console.log(`bench: ${name} ...`);
  let section: string;
  try {
    section = await (await load())();
  } catch (error) {
    console.error(`bench: ${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
    failed = true;
    continue;
  }
  console.log(section);
  const block = `<!-- bench:${name} -->\n${section.trim()}\n<!-- /bench:${name} -->`;
  const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
  results = pattern.test(results) ? results.replace(pattern, block) : `${results.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, results);
}
process.exitCode = failed ? 1 : 0;
