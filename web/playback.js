// playback.js: stepping and playing. Playing reveals the step's focus matrix cell by cell, each
// explained as it appears, then moves on; with prefers-reduced-motion it moves a whole step at
// a time. It holds only the timer: every change goes through the walkthrough's update().
//   walk: { state(), update(change, how), view(state) } where view(state) is that state's
//   step view.
export function createPlayback(walk) {
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  let timer;

  // How many cells the focus matrix of a view has, and its width.
  const cellsOf = (view) => {
    const m = view.matrices.find((x) => x.id === view.focusMatrix);
    return m ? { count: m.data.length * m.data[0].length, cols: m.data[0].length } : { count: 0 };
  };
  const stepMs = () => 2400 / walk.state().speed;

  // A step picked by hand (or by a tick): the focus and any message start afresh.
  function step(n, extra = {}) {
    walk.update(
      { step: n, reveal: Infinity, focus: null, notice: null, ...extra },
      { announce: true },
    );
  }

  function stop() {
    clearTimeout(timer);
  }

  function tick() {
    const state = walk.state();
    const { count, cols } = cellsOf(walk.view(state));
    const revealing = state.reveal === Infinity || state.reveal < count;
    if (!reducedMotion.matches && count > 0 && revealing) {
      const reveal = state.reveal === Infinity ? 1 : state.reveal + 1;
      const n = reveal - 1;
      const m = walk.view(state).focusMatrix;
      walk.update({ reveal, focus: { m, i: Math.floor(n / cols), j: n % cols } });
      timer = setTimeout(tick, Math.max(40, stepMs() / count));
      return;
    }
    if (state.step >= walk.steps(state).length - 1) {
      set(false);
      return;
    }
    const next = { ...state, step: state.step + 1 };
    if (reducedMotion.matches || cellsOf(walk.view(next)).count === 0) {
      step(next.step);
      timer = setTimeout(tick, stepMs());
    } else {
      step(next.step, { reveal: 0 });
      timer = setTimeout(tick, 300 / state.speed);
    }
  }

  /** Plays or pauses; playing from the last step starts again from the first. */
  function set(playing) {
    stop();
    const state = walk.state();
    const restart = playing && state.step === walk.steps(state).length - 1;
    if (restart) step(0, { playing: true });
    else walk.update({ playing, reveal: Infinity });
    if (playing) {
      // A first pause on the step where play starts, then on.
      const wait = reducedMotion.matches ? 2400 : 600;
      timer = setTimeout(tick, wait / walk.state().speed);
    }
  }

  return {
    /** Goes to step n by hand, which stops playing. */
    go(n) {
      stop();
      step(n, { playing: false });
    },
    set,
    stop,
  };
}
