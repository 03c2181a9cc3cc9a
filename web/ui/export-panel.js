// ui/export-panel.js: "Copy as NumPy" and "Copy as PyTorch", for a lab that can write its scene
// as a script (lab.script), and "Download as a spreadsheet", for a lab that can lay it out as a
// book of live formulas (lab.sheet). When the clipboard is refused, the script shows in a box to
// copy by hand. The spreadsheet's writer, exceljs, loads only when the learner asks for one.
import { el } from "../views.js";
import { exportKinds, exportNames } from "../export.js";
import { paramsFromState } from "../state.js";
import { copyOrShow } from "./copy.js";

export function exportPanel(ctx) {
  const { lab, msg } = ctx;
  if (!lab.script && !lab.sheet) return undefined;
  const status = el("p", { class: "status", role: "status" });
  const box = el("div", { class: "export-box" });
  const copy = async (kind) => {
    await copyOrShow(lab.script(kind, ctx), {
      status,
      box,
      copied: msg.export.copied(exportNames[kind]),
      failed: msg.export.copyFailed,
      id: "export-script",
      label: msg.export.script,
      rows: 16,
    });
    status.dataset.kind = kind;
  };
  const sheet = async () => {
    const { scene, state, stepId } = ctx;
    const name = `${scene.id}-${state.step + 1}-${stepId}.xlsx`;
    box.replaceChildren();
    status.textContent = msg.sheet.making;
    status.dataset.kind = "sheet";
    try {
      const link = `${location.origin}${location.pathname}?${paramsFromState(state, scene)}`;
      const [{ downloadSheet }, book] = await Promise.all([
        import("./sheet-download.js"),
        lab.sheet(ctx, link),
      ]);
      await downloadSheet(book, name);
      status.textContent = msg.sheet.done(name);
    } catch (error) {
      status.textContent = msg.sheet.failed(error.message);
    }
  };
  return el(
    "section",
    { class: "scene-controls export", "aria-labelledby": "export-title" },
    lab.script && [
      el("h3", { id: "export-title", text: msg.export.group }),
      (lab.scriptKinds ?? exportKinds).map((kind) =>
        el("button", {
          type: "button",
          id: `export-${kind}`,
          text: msg.export[kind],
          onclick: () => copy(kind),
        }),
      ),
    ],
    lab.sheet && [
      el("h3", { id: lab.script ? "sheet-title" : "export-title", text: msg.sheet.group }),
      el("button", { type: "button", id: "export-sheet", text: msg.sheet.button, onclick: sheet }),
    ],
    status,
    box,
  );
}
