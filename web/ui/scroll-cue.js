// ui/scroll-cue.js: a table wider than its column (a phone, a narrow embed) says so: its right
// edge fades while there is more to see, and a line under it says to scroll sideways. A heatmap
// that does not fit with its numbers is drawn dense first.
import { el } from "../views.js";

// Marks one scroller: data-more while its right part is out of sight, and the hint under it.
function mark(scroller, hint) {
  const wide = scroller.scrollWidth > scroller.clientWidth + 1;
  const atEnd = scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 1;
  scroller.toggleAttribute("data-more", wide && !atEnd);
  const next = scroller.nextElementSibling;
  const has = next?.classList.contains("scroll-hint");
  if (scroller.hasAttribute("data-no-hint")) return;
  if (wide && !has) scroller.after(el("p", { class: "scroll-hint", text: hint }));
  if (!wide && has) next.remove();
}

/**
 * Each heatmap under root drawn whole where its column allows: with its numbers when they fit,
 * dense (the shades alone, data-dense) when they do not, so that a long line's columns are not
 * cut off at the edge (20 tokens: 5 columns showed at 390 px); call after drawing, and when the
 * width changes. Returns nothing; reads each heatmap's width once, or twice when it is dense.
 */
export function fitHeatmaps(root) {
  for (const figure of root.querySelectorAll("figure.heatmap")) {
    const scroller = figure.querySelector(":scope > .scroll");
    if (!scroller) continue;
    figure.removeAttribute("data-dense");
    if (scroller.scrollWidth > scroller.clientWidth + 1) figure.setAttribute("data-dense", "");
  }
}

/** Marks every scroller under root; call after drawing, and when the width changes. */
export function markScrollers(root, hint) {
  fitHeatmaps(root);
  for (const scroller of root.querySelectorAll(".scroll")) {
    mark(scroller, hint);
    scroller.onscroll = () => mark(scroller, hint);
  }
}
