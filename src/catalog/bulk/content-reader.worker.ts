import { parentPort, workerData } from 'node:worker_threads';
import { FileReading, readContentFile } from '../content/content-files';

/**
 * A worker thread of readFilesInParallel: reads and validates its share of the files, in order, and
 * sends the readings as it goes, `readingsPerMessage` at a time, then `null`.
 */
const { files, readingsPerMessage } = workerData as { files: string[]; readingsPerMessage: number };
let batch: FileReading[] = [];
for (const file of files) {
  batch.push(readContentFile(file));
  if (batch.length === readingsPerMessage) {
    parentPort!.postMessage(batch);
    batch = [];
  }
}
if (batch.length > 0) parentPort!.postMessage(batch);
parentPort!.postMessage(null);
