import { Worker } from 'node:worker_threads';
import { workerScript } from '../workers/worker-script';
import type { CategoryCatalog } from './category-catalog';
import { assemble, collectFiles, FileReading, LoadedContent, readContentFile } from './content-files';

/** Below this many files one thread is quicker than starting others. */
const FILES_PER_THREAD_AT_LEAST = 2000;

/**
 * loadContent on several threads: the files are cut into consecutive shares, each read, parsed and
 * validated on a worker thread (that is most of an ingest's own time: 20 s for 100,000 files on one
 * thread), then the cross-file rules run here over the readings in file order, so the result and its
 * problems are exactly loadContent's.
 */
export async function loadContentInParallel(
  paths: string[],
  categories: CategoryCatalog,
  /** May still be on its way: it is needed only once every file is read. */
  existingListings: Set<string> | Promise<Set<string>>,
  threads: number,
  filesPerThreadAtLeast = FILES_PER_THREAD_AT_LEAST,
  readingsPerMessage = READINGS_PER_MESSAGE,
): Promise<LoadedContent> {
  // Awaited once the files are read; a failure meanwhile must not count as unhandled.
  if (existingListings instanceof Promise) existingListings.catch(() => undefined);
  const { files, problems } = collectFiles(paths);
  const shares = Math.max(1, Math.min(threads, Math.floor(files.length / filesPerThreadAtLeast)));
  if (shares <= 1) return assemble(files.map(readContentFile), problems, categories, await existingListings);
  const size = Math.ceil(files.length / shares);
  const readings = await Promise.all(
    Array.from({ length: shares }, (_, i) => readOnThread(files.slice(i * size, (i + 1) * size), readingsPerMessage)),
  );
  return assemble(readings.flat(), problems, categories, await existingListings);
}

/**
 * Readings a reader thread sends at a time, as it reads. Sent all at once at the end, a thread held its
 * whole share (its heap, and the collector's work, grew with it), and this thread then took 50,000
 * readings from each in turn with a core idle: reading 100,127 files took 11.3-12.5 s and 1.5-1.6 GB at
 * the peak (10.5-11.9 s and 1.2 GB in batches of 500). Batches of 500 still lived long enough to be
 * copied by the thread's young collections and promoted: 7.6-9.1 s and 13.8-16.5 s of CPU on a later
 * host, against 7.0-7.2 s and 12.8-13.1 s in batches of 100, which mostly die young (four runs each,
 * alternating). Smaller batches gained nothing more.
 */
const READINGS_PER_MESSAGE = 100;

/** Reads and validates these files on a worker thread; its readings arrive in batches, then `null`. */
function readOnThread(files: string[], readingsPerMessage: number): Promise<FileReading[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerScript(__dirname, 'content-reader.worker'), { workerData: { files, readingsPerMessage } });
    const readings: FileReading[] = [];
    let answered = false;
    worker.on('message', (batch: FileReading[] | null) => {
      if (batch) {
        for (const reading of batch) readings.push(reading);
        return;
      }
      answered = true;
      resolve(readings);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`content reader thread exited with code ${code} after ${readings.length} of ${files.length} files`));
    });
  });
}
