import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

// `syncfs` from Node, which has no binding for it: coreutils' `sync -f <dir>` (Linux) flushes the file
// system that holds a folder. A bulk build asks for it many times (`earlyFlush` in write.ts, then the
// final sync before its commit), so one shell, started before the build grows, runs them all.

/** How long one sync may take before the build stops waiting for it (and falls back to fsyncs). */
const SYNC_TIMEOUT_MS = 120_000;

/**
 * `sync -f` of a folder's file system on request, through one `sh` that reads a folder per line and
 * answers each with a line: a process started per sync forked the grown build process each time, on the
 * build's thread (see docs/decisions/0002). Started while the process is small
 * (`start`), the shell costs one small fork. While no request is waiting it holds nothing open for the
 * event loop, so the process ends when its work does, and the shell with it (its input closes).
 */
export class FileSystemSyncer {
  private child: ChildProcess | undefined;
  /** The requests sent and not answered, oldest first, each with its time-out. */
  private readonly waiting: { settle: (ok: boolean) => void; timer: NodeJS.Timeout }[] = [];
  private answers = '';
  private broken = false;

  /** The shell's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the shell now, if it is not running (a request starts it otherwise); Linux only. */
  start(): void {
    this.started();
  }

  /**
   * Flushes the file system of `dir` to disk: true once `sync -f` said it did, false if it failed or
   * this is not Linux (`sync -f` is coreutils' there), where the caller syncs file by file.
   */
  sync(dir: string): Promise<boolean> {
    // One folder per line: a name with a line break in it is not sent (the caller falls back).
    if (dir.includes('\n')) return Promise.resolve(false);
    const child = this.started();
    if (!child) return Promise.resolve(false);
    return new Promise<boolean>((settle) => {
      // The only handle kept open for the event loop: the process waits for the answer, at most this long.
      const timer = setTimeout(() => this.fail(), SYNC_TIMEOUT_MS);
      this.waiting.push({ settle, timer });
      // Absolute: the shell keeps the folder it was started in.
      child.stdin!.write(`${resolve(dir)}\n`);
    });
  }

  /** Ends the shell; a request still waiting is answered false. */
  close(): void {
    this.child?.stdin?.end();
    this.fail();
  }

  private started(): ChildProcess | undefined {
    if (this.broken || process.platform !== 'linux') return undefined;
    if (this.child) return this.child;
    const script = 'while IFS= read -r dir; do if sync -f -- "$dir"; then echo 0; else echo 1; fi; done';
    const child = childProcess().spawn('sh', ['-c', script, 'eventry-sync'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.child = child;
    child.on('error', () => this.fail());
    child.on('exit', () => this.fail());
    child.stdin!.on('error', () => this.fail());
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.answered(chunk));
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    return child;
  }

  private answered(chunk: string): void {
    this.answers += chunk;
    for (let end = this.answers.indexOf('\n'); end !== -1; end = this.answers.indexOf('\n')) {
      const ok = this.answers.slice(0, end) === '0';
      this.answers = this.answers.slice(end + 1);
      const request = this.waiting.shift();
      if (!request) continue;
      clearTimeout(request.timer);
      request.settle(ok);
    }
  }

  /** The shell is gone, failed or too slow: every waiting request is answered false, later ones at once. */
  private fail(): void {
    this.broken = true;
    for (const request of this.waiting.splice(0)) {
      clearTimeout(request.timer);
      request.settle(false);
    }
    if (this.child && this.child.exitCode === null && !this.child.killed) this.child.kill();
  }
}

let shared: FileSystemSyncer | undefined;

/** The process's one syncer (its shell started at the first request, or by `start`). */
export function fileSystemSyncer(): FileSystemSyncer {
  shared ??= new FileSystemSyncer();
  return shared;
}

let childProcessModule: typeof import('node:child_process') | undefined;

/** `node:child_process`, loaded when a build first syncs, so that a no-op build never pays for it. */
function childProcess(): typeof import('node:child_process') {
  childProcessModule ??= createRequire(import.meta.url)(
    'node:child_process',
  ) as typeof import('node:child_process');
  return childProcessModule;
}
