import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledToolkitPath, tempDir } from '../helpers.js';

/** One change to a copy of the base catalogue. */
export type Mutation =
  | { path: string; text: string }
  | { path: string; link: 'secret' | 'inside' | '/dev/zero' }
  | { path: string; special: 'fifo' | 'folder' | 'sparse' };

/** One fuzz case: the changes, then each command run on the result (`{dir}` is the catalogue). */
export interface FuzzCase {
  mutations: Mutation[];
  commands: string[][];
}

/** What the runs of a suite came to: each count must be zero. */
export interface FuzzCounts {
  cases: number;
  runs: number;
  stackTraces: number;
  hangs: number;
  exit70: number;
  internalErrors: number;
  leakedBytes: number;
  /** The first few bad runs, to say what failed. */
  examples: string[];
}

/** The text of the file outside the catalogue that links point to: it must never reach any output. */
const SECRET = 'root:x:0:0:LEAK-MARKER-7f3a';

// Runs the cases in one child process (the compiled CLI in process, as the in-process runner does),
// so a case that hangs (a FIFO read, a catastrophic pattern) is seen as one: the child is given up
// on, the case counted, and the rest run in a new child.
const DRIVER = `
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
const [main, casesFile, base, work, from] = process.argv.slice(2);
const { runCli } = await import(main);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const secret = join(work, 'secret.txt');
writeFileSync(secret, ${JSON.stringify(SECRET)});
const memory = () => { const chunks = []; return { stream: new Writable({ write(c, _e, d) { chunks.push(c); d(); } }), text: () => Buffer.concat(chunks).toString('utf8') }; };
for (let i = Number(from); i < cases.length; i++) {
  const dir = join(work, 'case-' + i, 'catalogue');
  cpSync(base, dir, { recursive: true });
  for (const m of cases[i].mutations) {
    const path = join(dir, m.path);
    mkdirSync(dirname(path), { recursive: true });
    rmSync(path, { force: true, recursive: true });
    if ('text' in m) writeFileSync(path, m.text);
    else if ('link' in m) symlinkSync(m.link === 'secret' ? secret : m.link === 'inside' ? join(dir, 'eventry.config.yaml') : m.link, path);
    else if (m.special === 'fifo') spawnSync('mkfifo', [path]);
    else if (m.special === 'folder') mkdirSync(path);
    else { writeFileSync(path, ''); truncateSync(path, 80 * 1024 * 1024); }
  }
  for (const command of cases[i].commands) {
    const out = memory(); const err = memory();
    const args = command.map((arg) => arg.replaceAll('{dir}', dir));
    process.stdout.write(JSON.stringify({ i, start: true }) + '\\n');
    let status;
    try {
      status = await runCli(['node', 'eventry', ...args], { stdin: Readable.from([]), stdout: out.stream, stderr: err.stream, env: { ...process.env, NO_COLOR: '1' }, cwd: work, onSignal: () => () => {}, exit: () => {} });
    } catch (error) { status = 'threw'; err.stream.write(String(error && error.stack)); }
    process.stdout.write(JSON.stringify({ i, status, output: out.text() + err.text() }) + '\\n');
  }
  rmSync(join(work, 'case-' + i), { recursive: true, force: true });
}
`;

/** The driver's lines until it ends, or until `hangMs` pass without a line (then it is killed). */
function runDriver(
  args: string[],
  hangMs: number,
): Promise<{ lines: string[]; finished: boolean; killed: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    let rest = '';
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    let timer = setTimeout(kill, hangMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      clearTimeout(timer);
      timer = setTimeout(kill, hangMs);
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      lines.push(...parts.filter(Boolean));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ lines, finished: code === 0, killed, stderr });
    });
  });
}

/** Runs every case over a copy of `base`, giving up on a run after `hangMs` without progress. */
export async function runFuzz(
  base: string,
  cases: readonly FuzzCase[],
  hangMs = 20_000,
): Promise<FuzzCounts> {
  const work = tempDir('eventry-fuzz-');
  const casesFile = join(work, 'cases.json');
  writeFileSync(casesFile, JSON.stringify(cases));
  const driver = join(work, 'driver.mjs');
  writeFileSync(driver, DRIVER);
  const main = pathToFileURL(compiledToolkitPath('generators', 'cli', 'main.js')).href;
  const counts: FuzzCounts = {
    cases: cases.length,
    runs: 0,
    stackTraces: 0,
    hangs: 0,
    exit70: 0,
    internalErrors: 0,
    leakedBytes: 0,
    examples: [],
  };
  const bad = (what: string, i: number, output: string) => {
    if (counts.examples.length < 5)
      counts.examples.push(
        `${what} in case ${i}: ${JSON.stringify(cases[i]).slice(0, 600)}\n${output.slice(0, 600)}`,
      );
  };
  let from = 0;
  while (from < cases.length) {
    const child = await runDriver([driver, main, casesFile, base, work, String(from)], hangMs);
    let last = from - 1;
    let open: number | undefined;
    for (const line of child.lines) {
      const record = JSON.parse(line) as {
        i: number;
        start?: true;
        status?: number | 'threw';
        output?: string;
      };
      last = record.i;
      if (record.start) {
        open = record.i;
        continue;
      }
      open = undefined;
      counts.runs++;
      judge(record, counts, bad);
    }
    if (child.finished && open === undefined) break;
    // The child was given up on in the middle of case `open ?? last + 1` (a hang), or died there (a
    // crash, counted as an internal error with what it printed).
    const hung = open ?? last + 1;
    if (child.killed) counts.hangs++;
    else counts.internalErrors++;
    counts.runs++;
    bad(child.killed ? 'hang' : 'the run died', hung, child.stderr);
    from = hung + 1;
  }
  return counts;
}

/** Counts what is wrong with one run's outcome. */
function judge(
  record: { i: number; status?: number | 'threw'; output?: string },
  counts: FuzzCounts,
  bad: (what: string, i: number, output: string) => void,
): void {
  const output = record.output ?? '';
  if (/^\s+at .+:\d+:\d+\)?$/m.test(output) || record.status === 'threw') {
    counts.stackTraces++;
    bad('stack trace', record.i, output);
  }
  if (record.status === 70) {
    counts.exit70++;
    bad('exit 70', record.i, output);
  }
  if (/internal error|this is a bug in eventry/i.test(output)) {
    counts.internalErrors++;
    bad('internal error', record.i, output);
  }
  if (output.includes('LEAK-MARKER') || output.includes('root:x:0:0')) {
    counts.leakedBytes++;
    bad('leaked bytes', record.i, output);
  }
}
