import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { SITE_MARKER, SiteWriterStopped, writeSiteAtomically } from '../../generators/docs/write-site.js';
import { tempDir } from '../helpers.js';

/** The threads the site writer started, to stop one mid-way as a crash would. */
const started = vi.hoisted(() => [] as Worker[]);
vi.mock('../../generators/shared/worker.js', async (actual) => {
  const real = await actual<typeof import('../../generators/shared/worker.js')>();
  return {
    ...real,
    startWorker: (...args: Parameters<typeof real.startWorker>) => {
      const worker = real.startWorker(...args);
      started.push(worker);
      return worker;
    },
  };
});

/** A site written once, with `index.html` saying `old`: the last good site a failed run must keep. */
async function previousSite(): Promise<string> {
  const site = join(tempDir(), 'site');
  await writeSiteAtomically(site, (emit) => {
    emit('index.html', 'old');
    return { ok: true };
  });
  return site;
}

function leftBehind(site: string): string[] {
  return readdirSync(dirname(site)).filter((name) => name.includes('staging'));
}

describe('the site writer thread (a compiled module started with startWorker)', () => {
  it('runs in its own thread on the compiled module docs/site-writer-worker', async () => {
    started.length = 0;
    const site = join(tempDir(), 'site');
    await writeSiteAtomically(site, (emit) => {
      emit('a.html', 'a');
      return { ok: true };
    });
    expect(started).toHaveLength(1);
    expect(readFileSync(join(site, 'a.html'), 'utf8')).toBe('a');
    expect(existsSync(join(site, SITE_MARKER))).toBe(true);
  });

  it('a write error in the thread is a coded write-failed problem naming the file; the previous site stays', async () => {
    const site = await previousSite();
    const result = await writeSiteAtomically(site, async (emit) => {
      for (let i = 0; i < 300; i++) await emit(`events/e${i}/index.html`, 'new');
      // A name longer than any file system takes: the thread's open fails.
      await emit(`pkg/${'x'.repeat(300)}.js`, 'new');
      return { ok: true };
    });
    expect(result).toEqual({
      code: 'write-failed',
      message: `cannot write pkg/${'x'.repeat(300)}.js into ${site} (ENAMETOOLONG); the previous site is left as it was.`,
    });
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toBe('old');
    expect(existsSync(join(site, 'events'))).toBe(false);
    expect(leftBehind(site)).toEqual([]);
  });

  it('a thread that dies mid-way is reported (site-writer-stopped), not hung on; the previous site stays', async () => {
    const site = await previousSite();
    started.length = 0;
    const failing = writeSiteAtomically(site, async (emit) => {
      for (let i = 0; i < 200; i++) await emit(`events/e${i}/index.html`, 'new');
      await started[0]!.terminate();
      for (let i = 200; i < 1000; i++) await emit(`events/e${i}/index.html`, 'new');
      return { ok: true };
    });
    await expect(failing).rejects.toBeInstanceOf(SiteWriterStopped);
    await expect(failing).rejects.toMatchObject({
      code: 'site-writer-stopped',
      message: expect.stringContaining('the site writer thread stopped before the site was written'),
    });
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toBe('old');
    expect(leftBehind(site)).toEqual([]);
  });
});
