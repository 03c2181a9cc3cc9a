// ui/scroll-cue.js: a table wider than its column (a phone, a narrow embed) says so: its right
// edge fades while there is more to see, and a line under it says to scroll sideways. A heatmap
// that does not fit with its numbers is drawn dense first.
import { el } from "../views.js";

// What one scroller's marks must be, read from its layout: whether it is wider than its column,
// and whether its right part is out of sight.
function measure(scroller) {
  const wide = scroller.scrollWidth > scroller.clientWidth + 1;
  const atEnd = scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 1;
  return { wide, more: wide && !atEnd };
}

// Marks one scroller from its measure: data-wide when it can scroll sideways (focus.js reads the
// scroll of those only), data-more while its right part is out of sight, and the hint under it.
function mark(scroller, { wide, more }, hint) {
  scroller.toggleAttribute("data-wide", wide);
  scroller.toggleAttribute("data-more", more);
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
  // every write, then every read, then every write: the page is laid out once, not once a
  // heatmap (a long lab step has dozens)
  const scrollers = [...root.querySelectorAll("figure.heatmap")]
    .map((figure) => [figure, figure.querySelector(":scope > .scroll")])
    .filter(([, scroller]) => scroller);
  for (const [figure] of scrollers) figure.removeAttribute("data-dense");
  const dense = scrollers.map(([, s]) => s.scrollWidth > s.clientWidth + 1);
  scrollers.forEach(([figure], k) => dense[k] && figure.setAttribute("data-dense", ""));
}

/** Marks every scroller under root; call after drawing, and when the width changes. */
export function markScrollers(root, hint) {
  fitHeatmaps(root);
  markWide(root, hint);
}

/** Marks every scroller under root whose heatmaps are fitted already (fitHeatmaps). */
export function markWide(root, hint) {
  // all read, then all marked: one layout for the lot
  const scrollers = [...root.querySelectorAll(".scroll")];
  const measures = scrollers.map(measure);
  scrollers.forEach((scroller, k) => {
    mark(scroller, measures[k], hint);
    scroller.onscroll = () => mark(scroller, measure(scroller), hint);
  });
}
