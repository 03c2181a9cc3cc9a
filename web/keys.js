// keys.js: the walkthrough's keys. ← → step, Home and End jump, Space plays or pauses; keys that
// start in the walkthrough's own fields or a focused scroller stay there, and Space presses a
// focused button (the platform's convention, and what the hint says). In someone else's page
// (a reveal.js deck, say) the keys we use, and every key typed in our fields, go no further than
// the walkthrough.

/**
 * A keydown handler. walk: { state(), steps(), playback, controls (the walkthrough has its
 * player), page (it is the whole page) }.
 */
export function keyHandler(walk) {
  return function onKey(event) {
    const target = event.target;
    const keep = () => walk.page || event.stopPropagation();
    const field = target.closest?.("input, select, textarea");
    if (field) keep();
    if (field && field.type !== "checkbox") return;
    // A focused scroller (Chromium gives a region that scrolls a tab stop of its own): Space,
    // the arrows, Home and End scroll it, as they do anywhere else.
    if (target.classList?.contains("scroll")) return keep();
    const { playback } = walk;
    const state = walk.state();
    const last = walk.steps() - 1;
    const keys = {
      ArrowRight: () => playback.go(state.step + 1),
      ArrowLeft: () => playback.go(state.step - 1),
      Home: () => playback.go(0),
      End: () => playback.go(last),
      " ": () => playback.set(!state.playing),
    };
    if (!keys[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
    // Space presses a button (a matrix's cell too: it picks the cell, or edits an input
    // cell), ticks a box, opens a summary; elsewhere (the page, a title) it plays or pauses.
    const own = "button, a, summary, input";
    if (event.key === " " && (target.closest?.(own) || !walk.controls)) {
      if (target.closest?.(own)) keep();
      return;
    }
    event.preventDefault();
    keep();
    keys[event.key]();
  };
}
