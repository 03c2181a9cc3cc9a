// ui/copy.js: a text copied to the clipboard, or, where the browser refuses, shown in a box to
// copy by hand (selected). The export section's scripts and the check's summary use it.
import { el } from "../views.js";

/**
 * Copies `text`; says `copied` or `failed` in `status`; on a refusal puts a read-only textarea
 * (its `id`, `label` and `rows`) holding the text into `box`, selected. `box` is emptied first.
 */
export async function copyOrShow(text, { status, box, copied, failed, id, label, rows }) {
  box.replaceChildren();
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = copied;
  } catch {
    status.textContent = failed;
    const area = el("textarea", {
      id,
      readonly: true,
      rows,
      spellcheck: false,
      "aria-label": label,
      text,
    });
    box.append(area);
    area.select();
  }
}
