// ui/export-panel.js: "Copy as NumPy" and "Copy as PyTorch", for a lab that can write its scene
// as a script (lab.script). When the clipboard is refused, the script shows in a box to copy by
// hand.
import { el } from "../views.js";
import { exportKinds, exportNames } from "../export.js";

export function exportPanel(ctx) {
  const { lab, msg } = ctx;
  if (!lab.script) return undefined;
  const status = el("p", { class: "status", role: "status" });
  const box = el("div", { class: "export-box" });
  const copy = async (kind) => {
    const script = lab.script(kind, ctx);
    box.replaceChildren();
    try {
      await navigator.clipboard.writeText(script);
      status.textContent = msg.export.copied(exportNames[kind]);
    } catch {
      status.textContent = msg.export.copyFailed;
      const area = el("textarea", {
        id: "export-script",
        readonly: true,
        rows: 16,
        spellcheck: false,
        "aria-label": msg.export.script,
        text: script,
      });
      box.append(area);
      area.select();
    }
    status.dataset.kind = kind;
  };
  return el(
    "section",
    { class: "scene-controls export", "aria-labelledby": "export-title" },
    el("h3", { id: "export-title", text: msg.export.group }),
    (lab.scriptKinds ?? exportKinds).map((kind) =>
      el("button", {
        type: "button",
        id: `export-${kind}`,
        text: msg.export[kind],
        onclick: () => copy(kind),
      }),
    ),
    status,
    box,
  );
}
