import { parentPort, workerData } from 'node:worker_threads';
import { readContentFile } from './content-files';

/** A worker thread of readContentInParallel: reads and validates its share of the files, in order. */
parentPort!.postMessage((workerData as { files: string[] }).files.map(readContentFile));
