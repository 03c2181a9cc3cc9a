// focus.js: the keyboard focus and the open explanations through a redraw. A layer that is drawn
// again replaces its nodes; what had the focus in it gets it back (the same cell, or the same
// control by its id), or hands it to the step's title, so that the keys still reach the
// walkthrough; a <details> the learner opened stays open; a wide table keeps how far it was
// scrolled, and the focused cell is scrolled clear of its table's faded edge; a step just shown
// has its lit cells scrolled into view.

/** What had the focus in `node`, and which of its explanations are open. */
export function remember(root, node) {
  if (node.nodeType !== 1) return { inside: false, open: new Set() };
  const active = root.getRootNode().activeElement;
  const inside = !!active && node.contains(active);
  const cell = inside && active.closest?.("[data-matrix] button.cell");
  return {
    inside,
    cell: cell && {
      m: cell.closest("[data-matrix]").dataset.matrix,
      i: cell.dataset.i,
      j: cell.dataset.j,
    },
    id: inside ? active.id : undefined,
    open: new Set([...node.querySelectorAll("details[open] > summary")].map((s) => s.textContent)),
    // how far each wide matrix was scrolled sideways, by matrix id (one that is not wide has not
    // moved: its scrollLeft is not read, which would lay out a page just redrawn)
    scrolled: new Map(
      [...node.querySelectorAll("[data-matrix] .scroll[data-wide]")].map((s) => [
        s.closest("[data-matrix]").dataset.matrix,
        s.scrollLeft,
      ]),
    ),
  };
}

// The fade at a wide table's right edge (style.css, .scroll[data-more]).
const fade = 56;

// Scrolls a cell's table sideways, never the page, until the cell is clear of the edges.
function inView(cell) {
  const scroller = cell.closest(".scroll");
  if (!scroller) return;
  const c = cell.getBoundingClientRect();
  const s = scroller.getBoundingClientRect();
  if (c.right > s.right - fade) scroller.scrollLeft += c.right - (s.right - fade);
  else if (c.left < s.left) scroller.scrollLeft -= s.left - c.left;
}

/**
 * A step just shown: each wide matrix scrolled sideways, never the page, until its picked cell,
 * else its first lit one (the number the step is about), is clear of the faded edge.
 */
export function litInView(root) {
  for (const scroller of root.querySelectorAll("[data-matrix] .scroll")) {
    const cell = scroller.querySelector("td.focus") ?? scroller.querySelector("td.lit");
    if (cell) inView(cell);
  }
}

/** The focus and the open explanations back, in the redrawn `node`; `cell` wins if given. */
export function restore(root, node, kept, cell) {
  for (const summary of node.querySelectorAll("details > summary")) {
    if (kept.open.has(summary.textContent)) summary.parentElement.open = true;
  }
  for (const scroller of node.querySelectorAll("[data-matrix] .scroll")) {
    const left = kept.scrolled?.get(scroller.closest("[data-matrix]").dataset.matrix);
    if (!left) continue;
    scroller.scrollLeft = left;
    // wide, as its last drawing was; scroll-cue.js marks it again once the page is laid out
    scroller.setAttribute("data-wide", "");
  }
  const wanted = cell ?? kept.cell;
  if (wanted) {
    const found = root.querySelector(
      `[data-matrix="${wanted.m}"] button[data-i="${wanted.i}"][data-j="${wanted.j}"]`,
    );
    // A cell that is gone (another step) hands the focus to the step's title.
    (found ?? root.querySelector("#step-title"))?.focus({ preventScroll: true });
    if (found) inView(found);
  } else if (kept.inside) {
    // A control that is gone (a shape tool of another step), or that has no id, hands the
    // focus to the step's title; one drawn again disabled (Stop, once a run has ended) to the
    // first enabled control of its group (Start again), as the keyboard would expect.
    const again = kept.id ? root.querySelector(`#${CSS.escape(kept.id)}`) : null;
    const usable = again?.disabled
      ? again.closest("[role=group]")?.querySelector("button:not(:disabled)")
      : again;
    (usable ?? root.querySelector("#step-title"))?.focus({ preventScroll: true });
    // the control drawn again where the step grew (its results revealed above it): in view
    usable?.scrollIntoView?.({ block: "nearest" });
  }
}
