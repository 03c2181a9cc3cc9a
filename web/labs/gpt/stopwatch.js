// stopwatch.js: the clock of a training run in the model labs (train.js, induction-run.js):
// what the learner waits while it trains, not the time a tab is hidden or a run is stopped.

/**
 * A stopwatch of the time a run trains, in ms: run() when it trains, pause() when it stops or
 * its tab hides; read() is every stretch it ran, the current one up to now. `now` is the clock.
 */
export function stopwatch(now = () => performance.now()) {
  let total = 0;
  let since; // when the stretch running now began
  return {
    run() {
      if (since === undefined) since = now();
    },
    pause() {
      if (since !== undefined) total += now() - since;
      since = undefined;
    },
    read: () => total + (since === undefined ? 0 : now() - since),
    running: () => since !== undefined,
  };
}
