// ui/share.js: "Share with a class", a teacher's panel at the foot of the page: the language,
// predict mode, the controls to hide, the lessons and scenes to take and where to start, and
// the class link they make (state.js's classParams: the URL is the state), to copy or to open
// as a student would. What the teacher picks stays while the page is drawn again (`draft`);
// nothing is sent anywhere. The page's note for a class link (what it covers, what it could
// not read) is classNote.
import { el } from "../views.js";
import { classParams, hideable } from "../state.js";
import { languages } from "../i18n/index.js";
import { groupsOf } from "./scene-list.js";

// What a new panel starts with: this page's language, predict mode on, the controls a class
// should not touch hidden, and the lesson of the scene on screen.
function fresh({ state, lessons, scene }) {
  const lesson = lessons.find((l) => l.scenes.some((s) => s.id === scene.id)) ?? lessons[0];
  return {
    open: false,
    lang: state.lang,
    predict: true,
    hide: new Set(["predict", "key", "share"]),
    picked: new Set(lesson.scenes.map((s) => s.id)),
    start: "first",
  };
}

/** The link's parameters for a draft, or undefined when it picks no scene. */
export function linkOf(draft, { lessons, state }) {
  const all = lessons.flatMap((l) => l.scenes.map((s) => s.id));
  const path = all.filter((id) => draft.picked.has(id));
  if (!path.length) return undefined;
  const here = draft.start === "here" && draft.picked.has(state.scene);
  return classParams({
    scene: here ? state.scene : path[0],
    step: here ? state.step : 0,
    lang: draft.lang,
    predict: draft.predict,
    hide: hideable.filter((h) => draft.hide.has(h)),
    // every scene picked: no path, the whole curriculum
    path: path.length === all.length ? null : path,
  });
}

const box = (id, text, checked, onchange, extra = {}) =>
  el(
    "label",
    { class: "toggle" },
    el("input", { type: "checkbox", id, checked, onchange, ...extra }),
    text,
  );

/** The panel, on the page with lessons; undefined elsewhere or when the link hides it. */
export function sharePanel(ctx, drafts) {
  const { msg, lessons, state, steps, host } = ctx;
  if (!host.page || !lessons || state.hide.includes("share")) return undefined;
  const draft = (drafts.share ??= fresh(ctx));
  const w = msg.share;
  const output = el("textarea", {
    id: "share-link",
    readonly: true,
    rows: 3,
    spellcheck: false,
    "aria-label": w.link,
  });
  const status = el("p", { class: "status", role: "status" });
  const copy = el("button", { type: "button", id: "share-copy", text: w.copy });
  const open = el("a", { id: "share-try", text: w.try, target: "_blank", rel: "noopener" });
  const hereBox = el("input", {
    type: "radio",
    name: "share-start",
    id: "share-start-here",
    value: "here",
    checked: draft.start === "here",
    onchange: () => ((draft.start = "here"), show()),
  });
  const lessonBoxes = [];
  // the link as the draft makes it, in the box and behind "open" (drawn once the panel is open:
  // the first view, drawn at build time too, has it closed and the same DOM)
  const show = () => {
    const params = linkOf(draft, ctx);
    const url = params && `${location.origin}${location.pathname}?${params}`;
    output.value = url ?? "";
    status.textContent = url ? "" : w.none;
    copy.disabled = !url;
    if (url) open.href = `?${params}`;
    else open.removeAttribute("href");
    hereBox.disabled = !draft.picked.has(state.scene);
    for (const { input, ids } of lessonBoxes) {
      const n = ids.filter((id) => draft.picked.has(id)).length;
      input.checked = n === ids.length;
      input.indeterminate = n > 0 && n < ids.length;
    }
  };
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(output.value);
      status.textContent = w.copied;
    } catch {
      status.textContent = w.copyFailed;
      output.select();
    }
  });

  const langs = el(
    "fieldset",
    { class: "share-lang" },
    el("legend", { text: w.lang }),
    Object.values(languages).map((m) =>
      el(
        "label",
        { class: "toggle" },
        el("input", {
          type: "radio",
          name: "share-lang",
          id: `share-lang-${m.lang}`,
          value: m.lang,
          checked: draft.lang === m.lang,
          onchange: () => ((draft.lang = m.lang), show()),
        }),
        el("span", { lang: m.htmlLang, text: m.languageName }),
      ),
    ),
  );
  const hides = el(
    "fieldset",
    { class: "share-hide" },
    el("legend", { text: w.hide }),
    hideable.map((h) =>
      box(`share-hide-${h}`, w.hideNames[h], draft.hide.has(h), (e) => {
        if (e.target.checked) draft.hide.add(h);
        else draft.hide.delete(h);
        show();
      }),
    ),
  );
  const picks = el(
    "fieldset",
    { class: "share-lessons" },
    el("legend", { text: w.lessons }),
    groupsOf(
      lessons.flatMap((l) => l.scenes),
      lessons,
    ).map(({ lesson }, k) => {
      const ids = lesson.scenes.map((s) => s.id);
      const name = msg.ui.lesson(k + 1, msg.ui.lessons[lesson.id]);
      const all = el("input", {
        type: "checkbox",
        id: `share-lesson-${lesson.id}`,
        onchange: (e) => {
          for (const id of ids) e.target.checked ? draft.picked.add(id) : draft.picked.delete(id);
          for (const id of ids)
            picks.querySelector(`#share-scene-${id}`).checked = e.target.checked;
          show();
        },
      });
      lessonBoxes.push({ input: all, ids });
      return el(
        "div",
        {
          class: "share-lesson",
          role: "group",
          "aria-labelledby": `share-lesson-${lesson.id}-name`,
        },
        el(
          "label",
          { class: "toggle lesson-all" },
          all,
          el("span", { id: `share-lesson-${lesson.id}-name`, text: name }),
        ),
        el(
          "div",
          { class: "share-scenes" },
          ids.map((id) =>
            box(`share-scene-${id}`, msg.scenes[id].name, draft.picked.has(id), (e) => {
              if (e.target.checked) draft.picked.add(id);
              else draft.picked.delete(id);
              show();
            }),
          ),
        ),
      );
    }),
  );
  const start = el(
    "fieldset",
    { class: "share-start" },
    el("legend", { text: w.start }),
    el(
      "label",
      { class: "toggle" },
      el("input", {
        type: "radio",
        name: "share-start",
        id: "share-start-first",
        value: "first",
        checked: draft.start !== "here",
        onchange: () => ((draft.start = "first"), show()),
      }),
      w.startFirst,
    ),
    el(
      "label",
      { class: "toggle" },
      hereBox,
      w.startHere(msg.scenes[state.scene].name, msg.ui.stepOf(state.step + 1, steps.length)),
    ),
  );
  const panel = el(
    "details",
    {
      class: "share",
      id: "share",
      open: draft.open,
      ontoggle: (e) => {
        draft.open = e.target.open;
        if (draft.open) show();
      },
    },
    el("summary", { text: w.title }),
    el("p", { text: w.text }),
    langs,
    box("share-predict", w.predict, draft.predict, (e) => {
      draft.predict = e.target.checked;
      show();
    }),
    hides,
    picks,
    start,
    el("p", { class: "note", text: w.checks }),
    el("label", { class: "share-link", for: "share-link", text: w.link }),
    output,
    el("div", { class: "share-tools" }, copy, open),
    status,
  );
  if (draft.open) show();
  return el("section", { class: "share-section", "aria-label": w.title }, panel);
}

/** A class link's note, at the top of the page: what it covers, and what it could not read. */
export function classNote({ msg, state, scenes, lessons }) {
  const { path, hide, refused } = state;
  if (!path && !hide.length && !refused.length) return undefined;
  const groups = lessons ? groupsOf(scenes, lessons).filter((g) => g.lesson) : [];
  const names = groups.map((g) => msg.ui.lessons[g.lesson.id]);
  return el(
    "div",
    { class: "class-note", role: "note" },
    path && el("p", { text: msg.share.note(scenes.length, msg.list(names)) }),
    hide.length > 0 && el("p", { class: "hint", text: msg.share.hidden }),
    refused.length > 0 && el("p", { class: "error", text: msg.share.refused(refused) }),
  );
}
