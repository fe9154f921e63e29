import { Worker } from 'node:worker_threads';
import { FileReading, readContentFile } from '../content/content-files';
import { workerScript } from './worker-script';

/** Below this many files one thread is quicker than starting others. */
export const FILES_PER_THREAD_AT_LEAST = 2000;

/**
 * Reads and validates content files on several threads: the files are cut into consecutive shares, each
 * read, parsed and validated on a worker thread (most of a large import's own time), and the readings come
 * back in file order, exactly as reading them one by one gives them.
 */
export async function readFilesInParallel(
  files: string[],
  threads: number,
  filesPerThreadAtLeast = FILES_PER_THREAD_AT_LEAST,
  readingsPerMessage = READINGS_PER_MESSAGE,
): Promise<FileReading[]> {
  const shares = Math.max(1, Math.min(threads, Math.floor(files.length / filesPerThreadAtLeast)));
  if (shares <= 1) return files.map(readContentFile);
  const size = Math.ceil(files.length / shares);
  const readings = await Promise.all(
    Array.from({ length: shares }, (_, i) => readOnThread(files.slice(i * size, (i + 1) * size), readingsPerMessage)),
  );
  return readings.flat();
}

/**
 * Readings a reader thread sends at a time, as it reads. Sent all at once at the end, a thread held its
 * whole share, and its heap and collector's work grew with it; batches of 500 still lived long enough to
 * be copied by the thread's young collections; batches of 100 mostly die young.
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
