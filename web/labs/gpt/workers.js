// labs/gpt/workers.js: how many workers share each training step, a control beside Start and
// Stop in the three labs that train in this tab (the real model's "Train it yourself", the
// own-text lab, the induction lab), with its words in both languages. The choice is the page's
// (labs/worker.js), one for the three; the numbers are the same with any count (labs/share.js).
import { el } from "../../views.js";
import {
  mostWorkers,
  onWorkers,
  workerPossible,
  useWorkers,
  workersUsing,
  workersWanted,
} from "../worker.js";

export const workersWords = {
  en: {
    label: "Workers",
    shared: (n, cores) =>
      `${n === 1 ? "Each step is taken by 1 worker" : `Each step is shared among ${n} workers, which can each run on a processor core of their own`} (this device reports ${cores} ${cores === 1 ? "core" : "cores"}). The numbers are the same with any count; only the speed changes.`,
    fewer: (asked, n) =>
      `${asked} asked for, ${n} started: this browser would not start more. The numbers are the same; only the speed changes.`,
    alone:
      "Opened from a file, the page trains on its own thread, between frames: one worker, no more.",
  },
  zh: {
    label: "工作线程",
    shared: (n, cores) =>
      `${n === 1 ? "每一步由 1 个工作线程完成" : `每一步由 ${n} 个工作线程分担，每个可以各用一个处理器核心`}（这台设备报告有 ${cores} 个处理器核心）。线程数不同，算出的数一模一样，只有快慢不同。`,
    fewer: (asked, n) =>
      `要了 ${asked} 个，只启动了 ${n} 个：浏览器不肯再开。算出的数一样，只有快慢不同。`,
    alone: "从文件打开时，页面在自己的线程里、在两帧之间训练：只有一个线程。",
  },
};

/** The page's workers now: { served (whether the labs' worker runs), asked, using (undefined
 * until the worker answers), cores (the device's, as it reports them) }. */
export const workersNow = () => ({
  served: workerPossible(),
  asked: workersWanted(),
  using: workersUsing(),
  cores: globalThis.navigator?.hardwareConcurrency ?? 1,
});

/** What the control's note says of `now` (workersNow's), in `lang`. */
export function workersNote(lang, { served, asked, using, cores }) {
  const w = workersWords[lang];
  if (!served) return w.alone;
  // until the worker answers, it is taken at its word
  return using < asked ? w.fewer(asked, using) : w.shared(asked, cores);
}

// The notes drawn, held weakly (a panel drawn again leaves its old one to be collected), and
// their languages: each says the worker's answer when it comes.
const notes = new Set();
const languages = new WeakMap();
onWorkers(() => {
  for (const ref of notes) {
    const note = ref.deref();
    if (!note) notes.delete(ref);
    else note.textContent = workersNote(languages.get(note), workersNow());
  }
});

/** The control: a choice of 1 … mostWorkers() and a sentence of what is in use. */
export function workersControl(msg, id) {
  const w = workersWords[msg.lang];
  const served = workerPossible();
  const most = served ? mostWorkers() : 1;
  // a processor's cores, not this page's core: no glossary link in it
  const note = el("p", { class: "note", id: `${id}-workers-note`, "data-glossary": "off" });
  const choice = el(
    "select",
    {
      id: `${id}-workers`,
      "aria-describedby": note.id,
      disabled: !served,
      onchange: () => {
        useWorkers(Number(choice.value));
        note.textContent = workersNote(msg.lang, workersNow());
      },
    },
    ...Array.from({ length: most }, (_, k) =>
      el("option", { value: String(k + 1), text: String(k + 1) }),
    ),
  );
  choice.value = String(served ? workersWanted() : 1);
  note.textContent = workersNote(msg.lang, workersNow());
  notes.add(new WeakRef(note));
  languages.set(note, msg.lang);
  return el(
    "div",
    { class: "workers" },
    el("label", { for: choice.id, text: w.label }),
    " ",
    choice,
    note,
  );
}
