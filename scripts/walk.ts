import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-api';

/**
 * `node dist/scripts/walk.js [--runs N] [--cwd DIR] [--toolkit CHECKOUT] [--pairs N] -- <eventry args>`: the
 * walk of one eventry command, the sequence of rooms (folders under generators/: `load`,
 * `execute/fast/load`, `diff/rules`) control passes through while it runs, and how often it climbs
 * back (docs/decisions/0105). `{tmp}` in an argument is a fresh folder each run (`-- build --out {tmp}`);
 * `--toolkit` runs another checkout's built eventry (the commit before a change) under this one's floors;
 * `--pairs` how many of the busiest steps to list.
 *
 * Method. The command runs under V8's sampling profiler (`node --cpu-prof --cpu-prof-interval 20`: a
 * stack every 20 µs of the main thread). Each sample's stack is a path in the profile's call tree; from
 * one sample to the next, control returned up to the frames both stacks share and then called down to the
 * new one, so the walk replays those returns and calls frame by frame. The room of a moment is the room
 * of the innermost eventry frame (a frame of dist/generators/; Node's and the libraries' frames are
 * transparent; a sample with no eventry frame, such as the garbage collector's, is skipped). Consecutive
 * equal rooms are one visit. A call that starts and ends between two samples is not seen: the counts
 * are lower bounds and vary from run to run (a loop shows as many round trips as samples fall in it),
 * hence `--runs`, each run reported and the median.
 *
 * Floors. A room's floor comes from the import graph of this checkout's generators/ (whichever toolkit
 * runs, so a walk before a change and one after are measured against the same floors; read with the
 * TypeScript compiler API, dynamic `import()` included): rooms that import each other (a cycle between
 * folders) share a floor; otherwise a room is one floor above the highest room it imports. A step into
 * a room on a higher floor is a climb back: a return into a room left before, or a call against the
 * import arrows (a callback, counted apart as well).
 */

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A room's name: its folder below `checkout`'s generators/ (`model` for the model's files at the top). */
function roomOfSource(path: string, checkout = REPO): string | undefined {
  const rest = relative(join(checkout, 'generators'), path);
  if (rest.startsWith('..')) return undefined;
  const folder = dirname(rest).split(sep).join('/');
  return folder === '.' ? 'model' : folder;
}

/** Every `.ts` source below generators/, absolute. */
function generatorSources(): string[] {
  const root = join(REPO, 'generators');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.includes('browser'))
    .map((name) => join(root, name));
}

/** The room-to-room import arrows of generators/. */
function roomArrows(): Map<string, Set<string>> {
  const arrows = new Map<string, Set<string>>();
  for (const file of generatorSources()) {
    const from = roomOfSource(file)!;
    if (!arrows.has(from)) arrows.set(from, new Set());
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = roomOfSource(resolve(dirname(file), fileName));
      if (to !== undefined && to !== from) arrows.get(from)!.add(to);
    }
  }
  return arrows;
}

/** Each room's floor: rooms in one import cycle share one; a room sits one above the highest it imports. */
export function floorsOf(arrows: ReadonlyMap<string, ReadonlySet<string>>): Map<string, number> {
  const component = stronglyConnected(arrows);
  const floors = new Map<string, number>();
  const floorOfComponent = new Map<number, number>();
  const visit = (id: number): number => {
    const known = floorOfComponent.get(id);
    if (known !== undefined) return known;
    floorOfComponent.set(id, 0);
    let floor = 0;
    for (const [room, c] of component)
      if (c === id)
        for (const target of arrows.get(room) ?? [])
          if (component.get(target) !== id) floor = Math.max(floor, visit(component.get(target)!) + 1);
    floorOfComponent.set(id, floor);
    return floor;
  };
  for (const [room, id] of component) floors.set(room, visit(id));
  return floors;
}

/** Tarjan's strongly connected components: each room's component number. */
function stronglyConnected(arrows: ReadonlyMap<string, ReadonlySet<string>>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;
  const visit = (room: string): void => {
    index.set(room, counter);
    low.set(room, counter++);
    stack.push(room);
    for (const target of arrows.get(room) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(room, Math.min(low.get(room)!, low.get(target)!));
      } else if (!component.has(target)) low.set(room, Math.min(low.get(room)!, index.get(target)!));
    }
    if (low.get(room) !== index.get(room)) return;
    let member: string;
    do {
      member = stack.pop()!;
      component.set(member, components);
    } while (member !== room);
    components++;
  };
  const rooms = new Set([...arrows.keys(), ...[...arrows.values()].flatMap((targets) => [...targets])]);
  for (const room of [...rooms].sort()) if (!index.has(room)) visit(room);
  return component;
}

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** One step of the walk: from a room to the next, by a call or a return. */
export interface Step {
  from: string;
  to: string;
  by: 'call' | 'return';
}

/** The steps of a profile's main thread, replayed from its samples (see the header). */
export function stepsOf(profile: Profile, roomOfUrl: (url: string) => string | undefined): Step[] {
  const parent = new Map<number, number>();
  const room = new Map<number, string | undefined>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
    room.set(node.id, roomOfUrl(node.callFrame.url));
  }
  const pathOf = (id: number): number[] => {
    const path: number[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) path.unshift(at);
    return path;
  };
  const innermost = (path: readonly number[]): string | undefined => {
    for (let i = path.length - 1; i >= 0; i--)
      if (room.get(path[i]!) !== undefined) return room.get(path[i]!);
    return undefined;
  };
  const steps: Step[] = [];
  let current: number[] = [];
  let here: string | undefined;
  const move = (path: readonly number[], by: Step['by']) => {
    const next = innermost(path);
    if (next === undefined) return;
    if (here !== undefined && next !== here) steps.push({ from: here, to: next, by });
    here = next;
  };
  for (const sample of profile.samples) {
    const path = pathOf(sample);
    if (innermost(path) === undefined) continue;
    let shared = 0;
    while (shared < current.length && shared < path.length && current[shared] === path[shared]) shared++;
    for (let depth = current.length - 1; depth >= shared; depth--) move(current.slice(0, depth), 'return');
    for (let depth = shared + 1; depth <= path.length; depth++) move(path.slice(0, depth), 'call');
    current = path;
  }
  return steps;
}

/** The figures of one walk. */
export interface WalkFigures {
  rooms: string[];
  steps: number;
  climbs: number;
  callbacks: number;
  /** `a -> b` with how often, most frequent first. */
  pairs: [string, number][];
}

/** Rooms visited, steps, climbs back (callbacks among them) and the busiest pairs of a walk. */
export function figuresOf(steps: readonly Step[], floors: ReadonlyMap<string, number>): WalkFigures {
  const rooms = new Set<string>();
  const pairs = new Map<string, number>();
  let climbs = 0;
  let callbacks = 0;
  for (const { from, to, by } of steps) {
    rooms.add(from).add(to);
    const pair = `${from} -> ${to}`;
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    if ((floors.get(to) ?? 0) > (floors.get(from) ?? 0)) {
      climbs++;
      if (by === 'call') callbacks++;
    }
  }
  const sorted = [...pairs].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { rooms: [...rooms].sort(), steps: steps.length, climbs, callbacks, pairs: sorted };
}

/** Runs `toolkit`'s eventry once under the profiler in `cwd` and returns the main thread's profile. */
function profileRun(args: readonly string[], cwd: string, toolkit: string): Profile {
  const dir = mkdtempSync(join(tmpdir(), 'eventry-walk-'));
  try {
    const entry = join(toolkit, 'dist', 'scripts', 'eventry.js');
    const flags = ['--cpu-prof', '--cpu-prof-interval', '20', '--cpu-prof-dir', dir];
    // `{tmp}` in an argument is a fresh folder each run (a build into it is a full build every time).
    const given = args.map((arg) => arg.replaceAll('{tmp}', join(dir, 'out')));
    const run = spawnSync(process.execPath, [...flags, entry, ...given], { cwd, encoding: 'utf8' });
    if (run.status !== 0 && run.status !== 1)
      throw new Error(`eventry ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
    // The main thread's profile is the first one written (workers, if any, write their own).
    const main = readdirSync(dir)
      .filter((name) => name.endsWith('.cpuprofile'))
      .sort()
      .find((name) => /\.0\.\d+\.cpuprofile$/.test(name));
    if (!main) throw new Error('no profile of the main thread was written');
    return JSON.parse(readFileSync(join(dir, main), 'utf8')) as Profile;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The room of a profile frame's script URL: under dist/generators/ of `toolkit`, else none. */
function roomOfUrl(url: string, toolkit: string): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const path = fileURLToPath(url);
  const rest = relative(join(toolkit, 'dist', 'generators'), path);
  if (rest.startsWith('..')) return undefined;
  return roomOfSource(join(toolkit, 'generators', rest), toolkit);
}

/** The middle value of a list of figures. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * The figures of several runs: each run's counts (they vary with where the samples fall), the median,
 * and what varies least, the rooms and the distinct climbing arrows seen in any run.
 */
function summarize(
  runs: readonly WalkFigures[],
  steps: readonly Step[][],
  floors: ReadonlyMap<string, number>,
  listed = 10,
): string {
  const lines = runs.map(
    (figures, i) =>
      `run ${i + 1}: ${figures.rooms.length} rooms, ${figures.steps} steps, ${figures.climbs} climbs back (${figures.callbacks} by a callback); busiest: ${figures.pairs
        .slice(0, 4)
        .map(([pair, n]) => `${pair} ${n}`)
        .join('; ')}`,
  );
  const rooms = new Set(runs.flatMap((figures) => figures.rooms));
  const climbing = new Set<string>();
  for (const walk of steps)
    for (const { from, to, by } of walk)
      if ((floors.get(to) ?? 0) > (floors.get(from) ?? 0))
        climbing.add(`${from} -> ${to}${by === 'call' ? ' (callback)' : ''}`);
  const pick = (key: 'steps' | 'climbs' | 'callbacks') => median(runs.map((figures) => figures[key]));
  const pairs = new Set(runs.flatMap((figures) => figures.pairs.map(([pair]) => pair)));
  const bounces = [...pairs]
    .map((pair): [string, number] => [
      pair,
      median(runs.map((figures) => figures.pairs.find(([seen]) => seen === pair)?.[1] ?? 0)),
    ])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  lines.push(
    `median: ${pick('steps')} steps, ${pick('climbs')} climbs back (${pick('callbacks')} by a callback)`,
    `rooms seen (${rooms.size}): ${[...rooms].sort().join(' ')}`,
    `busiest steps (median): ${bounces
      .slice(0, listed)
      .map(([pair, n]) => `${pair} ${n}`)
      .join('; ')}`,
    `distinct climbs back (${climbing.size}, ${[...climbing].filter((step) => step.endsWith('(callback)')).length} by a callback): ${[...climbing].sort().join('; ')}`,
  );
  return lines.join('\n');
}

function main(argv: readonly string[]): void {
  const split = argv.indexOf('--');
  const own = split < 0 ? [] : argv.slice(0, split);
  const args = split < 0 ? argv : argv.slice(split + 1);
  const option = (name: string) => {
    const at = own.indexOf(name);
    return at < 0 ? undefined : own[at + 1];
  };
  const runs = Number(option('--runs') ?? '3');
  const cwd = resolve(option('--cwd') ?? process.cwd());
  const toolkit = resolve(option('--toolkit') ?? REPO);
  const floors = floorsOf(roomArrows());
  const walks = Array.from({ length: runs }, () =>
    stepsOf(profileRun(args, cwd, toolkit), (url) => roomOfUrl(url, toolkit)),
  );
  console.log(`eventry ${args.join(' ')}: the walk of the main thread, ${runs} run(s)`);
  console.log(
    summarize(
      walks.map((walk) => figuresOf(walk, floors)),
      walks,
      floors,
      Number(option('--pairs') ?? '10'),
    ),
  );
  const byFloor = [...floors].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  console.log(`floors: ${byFloor.map(([room, floor]) => `${room} ${floor}`).join(', ')}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2));
