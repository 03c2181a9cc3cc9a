// focus.js: the keyboard focus and the open explanations through a redraw. A layer that is drawn
// again replaces its nodes; what had the focus in it gets it back (the same cell, or the same
// control by its id), or hands it to the step's title, so that the keys still reach the
// walkthrough; a <details> the learner opened stays open.

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
  };
}

/** The focus and the open explanations back, in the redrawn `node`; `cell` wins if given. */
export function restore(root, node, kept, cell) {
  for (const summary of node.querySelectorAll("details > summary")) {
    if (kept.open.has(summary.textContent)) summary.parentElement.open = true;
  }
  const wanted = cell ?? kept.cell;
  if (wanted) {
    const found = root.querySelector(
      `[data-matrix="${wanted.m}"] button[data-i="${wanted.i}"][data-j="${wanted.j}"]`,
    );
    // A cell that is gone (another step) hands the focus to the step's title.
    (found ?? root.querySelector("#step-title"))?.focus({ preventScroll: true });
  } else if (kept.inside) {
    // A control that is gone (a shape tool of another step), or that has no id, hands the
    // focus to the step's title.
    const again = kept.id ? root.querySelector(`#${CSS.escape(kept.id)}`) : null;
    (again ?? root.querySelector("#step-title"))?.focus({ preventScroll: true });
  }
}
