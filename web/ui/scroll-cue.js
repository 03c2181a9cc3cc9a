// ui/scroll-cue.js: a table wider than its column (a phone, a narrow embed) says so: its right
// edge fades while there is more to see, and a line under it says to scroll sideways.
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

/** Marks every scroller under root; call after drawing, and when the width changes. */
export function markScrollers(root, hint) {
  for (const scroller of root.querySelectorAll(".scroll")) {
    mark(scroller, hint);
    scroller.onscroll = () => mark(scroller, hint);
  }
}
