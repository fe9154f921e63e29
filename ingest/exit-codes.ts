/**
 * Exit codes of the ingest command line (docs/editors.md, "Exit codes"). When several apply, the highest
 * is used.
 */
export const EXIT = {
  /** Done: everything was written (or unchanged) and the read models show it. */
  done: 0,
  /** Invalid input (files, arguments or settings): nothing was written. */
  invalidInput: 1,
  /** A conflict (someone changed the document meanwhile) or an unknown id was reported; the rest was written. */
  conflict: 2,
  /** Stopped part-way (Redis unreachable, a failing command, Ctrl-C): the report says what was written; re-running is safe. */
  stopped: 3,
  /** Written, but the read models do not show it: no projector applied it within the wait, and this process could not. */
  readModelsStale: 4,
  /**
   * Refused because of what the directory holds, nothing written: a file based on an older version than the
   * current one (someone else's change would be undone), or a file for a withdrawn document.
   */
  refusedByStore: 5,
} as const;

/** Says that the read models do not show what was written, why, and what to do (exit code readModelsStale). */
export function reportStaleReadModels(because: string): void {
  console.error(
    `the read models are stale (the API does not show the latest changes yet): ${because}.\n` +
      'The events are stored: start the service (it projects as it runs) or run `npm run ingest -- project`, and check /readyz; ' +
      'nothing needs re-ingesting (running this ingest again also projects, once it can).',
  );
  process.exitCode = EXIT.readModelsStale;
}
