/**
 * Ctrl-C (or SIGTERM) during a run: the first one says `message` on stderr and stops the run, which
 * still writes what it measured; a second quits at once with `quitCode`. Answers the function that
 * takes the handlers off again.
 */
export function stopOnSignals(message: string, quitCode: number, stop: () => unknown): () => void {
  let interrupted = 0;
  const onSignal = (): void => {
    interrupted++;
    if (interrupted > 1) process.exit(quitCode);
    process.stderr.write(message);
    void stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
