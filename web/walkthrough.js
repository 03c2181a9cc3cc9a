// walkthrough.js: one walkthrough, rendered into any container: the page's #app or a custom
// element's shadow root. The flow is one-way: scene → its lab's core call → trace → steps →
// views. The state and its one way of changing are the store's (store.js); the page is a row of
// layers (the header, the scene list, the intro, the player, the step, "check my numbers", the
// pictures, the tools, the export, the lesson's check, a teacher's class link), each of which says which parts of the state it shows and is
// drawn again only when one of them changed. Keys are keys.js's, the focus through a redraw
// focus.js's; the parts of the page are modules in web/ui/, what a scene shows its lab's.
import { createStore } from "./store.js";
import { keyHandler } from "./keys.js";
import { litInView, remember, restore } from "./focus.js";
import { wordsFor } from "./words.js";
import { paramsFromState, paramsOf } from "./state.js";
import { languages } from "./i18n/index.js";
import { createPlayback } from "./playback.js";
import { el } from "./views.js";
import { header } from "./ui/header.js";
import { sceneList, nextUp, showCurrent } from "./ui/scene-list.js";
import { intro, aboutBelow } from "./ui/intro.js";
import { recap } from "./ui/recap.js";
import { sceneControls, paramControls } from "./ui/controls.js";
import { markScrollers } from "./ui/scroll-cue.js";
import { worksheet, answerKey } from "./ui/worksheet.js";
import { player } from "./ui/player.js";
import { stepPanel } from "./ui/step-panel.js";
import { checkPanelFor } from "./ui/check-panel.js";
import { exportPanel } from "./ui/export-panel.js";
import { createGlossary } from "./ui/glossary.js";
import { quizPanel, lessonOfScene } from "./ui/quiz.js";
import { sharePanel, classNote } from "./ui/share.js";

export { messages, defaultLang, stateFromParams, paramsFromState } from "./state.js";

// What a layer shows: the parts of the state (and "trace", the numbers) it is drawn from. A
// layer with `except` shows every part but those.
const everything = (...except) => ({ except });
const only = (...keys) => ({ only: keys });
const hit = (deps, changed) =>
  changed.has("*") ||
  (deps.only
    ? deps.only.some((k) => changed.has(k))
    : [...changed].some((k) => !deps.except.includes(k)));

// The layers, in the page's order, and what each is drawn from. The step comes before
// everything not needed to follow it, so that on a phone it is on the first screen. The compact
// layout (a slide) keeps only the player and the step.
function pageLayers(host, scenes, drafts) {
  const fixed = ["speed", "seed", "playing"];
  const layers = [
    { where: "top", deps: only("scene", "lang", "notice"), draw: (c) => host.nav && header(c) },
    {
      where: "top",
      deps: only("scene", "lang"),
      draw: (c) => host.nav && scenes.length > 1 && sceneList(c),
    },
    { where: "top", deps: only("scene", "lang"), draw: (c) => host.nav && classNote(c) },
    { deps: only("scene", "lang", "edits", "step"), draw: intro },
    {
      deps: only("scene", "lang", "step", "steps", "playing", "predict", "speed"),
      draw: (c) => host.controls && player(c),
      slide: true,
    },
    {
      deps: everything("speed", "seed"),
      draw: (c) => stepPanel(c, host.controls && paramControls(c)),
      slide: true,
    },
    { deps: only("scene", "lang"), draw: aboutBelow },
    {
      deps: everything(...fixed, "reveal"),
      draw: (c) => host.controls && checkPanelFor(c, drafts),
    },
    { deps: everything(...fixed, "reveal"), draw: besidePanels },
    { deps: only("scene", "lang", "step"), draw: (c) => host.nav && nextUp(c) },
    { deps: only("scene", "lang", "step"), draw: (c) => host.nav && quizPanel(c) },
    { deps: only("scene", "lang", "step"), draw: (c) => host.nav && recap(c) },
    {
      deps: only("scene", "lang", "seed", "digits", "edits", "trace"),
      draw: (c) => host.controls && sceneControls(c),
    },
    {
      deps: only("scene", "lang", "step", "digits", "edits", "trace"),
      // a class link may hide the export section, whatever it holds
      draw: (c) => host.controls && !c.state.hide.includes("export") && exportPanel(c),
    },
    { deps: only("scene", "lang", "step"), draw: (c) => sharePanel(c, drafts) },
  ];
  return host.compact ? layers.filter((l) => l.slide) : layers;
}

// The pictures beside the step, when it has some.
function besidePanels(ctx) {
  const beside = ctx.step.panels.map((id) => ctx.panel(id)).filter(Boolean);
  return beside.length ? el("section", { class: "views" }, beside) : undefined;
}

// Every step of the scene as the worksheet prints it: its ctx, with its words.
function stepsToPrint(store, pageParts) {
  return store.stepsOf(store.state).map((_, k) => {
    const ctx = store.derive({ ...store.state, step: k, focus: null, reveal: Infinity }, pageParts);
    const custom = ctx.scene.text?.[store.state.lang]?.steps?.[ctx.stepId];
    return {
      ...ctx,
      text: custom ?? ctx.lab.text?.(ctx.stepId, ctx) ?? ctx.msg.steps[ctx.stepId].text,
    };
  });
}

// What the outside sees: the state, the step's id, the inputs and the output.
function publicStateOf(store) {
  const { reveal, notice, revealed, predictFrom, refused, ...rest } = store.state;
  const scene = store.byId[rest.scene];
  const steps = store.stepsOf(store.state).map((s) => s.id);
  return {
    ...rest,
    stepId: steps[rest.step],
    steps,
    inputs: { ...scene.inputs, ...rest.edits },
    output: store.good.trace.output,
  };
}

/**
 * Renders a walkthrough into `root` and returns its controller.
 * options: core (from loadAttention), scenes (those it may show; the initial one resolved, see
 * resolveScene in lab.js), state (initial, partial),
 * page (the full page: it sets the document's title and language), nav (the title, the
 * language switch and the scene list; always on a page), controls (the player, the input
 * tools and "check my numbers"; always on a page), compact (a slide's layout: the player and
 * the step alone, see docs/embedding.md; never on a page), keyTarget (where keys are heard),
 * lessons (the curriculum's, from web/catalogue.js: the scene list groups the scenes by them,
 * and a scene's last step names the next one), quiz (web/quiz.js's questionsOf and answersOf,
 * with lessons on a page: the check at the end of each lesson), onChange(state, stepChanged, link) after every
 * render (`link()`: the state as URL parameters, paramsFromState's, of the scene as loaded and
 * the state itself: the public state's `steps` is the list of step ids, not a lab's `steps`).
 */
export function createWalkthrough(root, options) {
  const { core, scenes, page = false, keyTarget = root, onChange } = options;
  const host = {
    page,
    nav: page || !!options.nav,
    controls: page || !!options.controls,
    compact: !page && !!options.compact,
  };
  const store = createStore({ core, scenes, partial: options.state });
  const { update } = store;
  // what the learner typed in "check my numbers", by scene and step; what a teacher picked
  // for a class link (drafts.share)
  const drafts = {};
  // on the page: each technical word linked where it first appears, and the glossary's panel
  const glossary = page
    ? createGlossary({
        go: ({ scene, step, params }) =>
          update({ scene, step: step - 1, ...params }, { announce: true, arrive: true }),
      })
    : undefined;
  // the check at the end of each lesson (ui/quiz.js): its questions on the scenes offered, their
  // answers worked out by the core, what was typed and marked, the name for the summary
  const entries = Object.fromEntries(
    (options.lessons ?? []).flatMap((l) => l.scenes).map((s) => [s.id, s]),
  );
  const quiz = page &&
    options.lessons &&
    options.quiz && {
      questionsOf: options.quiz.questionsOf,
      answers: (questions) => options.quiz.answersOf(questions, entries, core),
      drafts: {},
      results: {},
      name: "",
      url: () => location.href,
    };
  let focusAfter = null; // a cell { m, i, j } to focus after the next render
  let lastStep;
  let stepCount; // how many steps the scene has: a lab's own control can change it
  const playback = createPlayback({
    state: () => store.state,
    update,
    view: (s) => store.derive(s).view,
    steps: store.stepsOf,
  });
  const pageParts = {
    host,
    root,
    update,
    playback,
    lessons: options.lessons,
    glossary,
    quiz,
    printKey: () => printKey(),
    refocus: (cell) => (focusAfter = cell),
  };
  const contextNow = () => store.derive(store.state, pageParts);

  const layers = pageLayers(host, scenes, drafts);

  // A layer's node: what it draws, or a placeholder that keeps its place.
  const drawn = (layer, ctx) => layer.draw(ctx) || document.createComment("");

  const shell = el("div");
  const main = el(page ? "main" : "div", { id: "main", tabindex: -1 });
  const live = el("p", { id: "announce", class: "visually-hidden", "aria-live": "polite" });

  // What reads the layout: the scrollers' marks and the glossary's first visible use of a word.
  // After a pick alone (the same step redrawn around another cell) it runs once a frame, before
  // the frame is painted: a script that picks many cells in one go lays the page out once, not
  // once a cell (the book scene's step 5, 2,231 elements, in one script: 43 ms a pick, then 14).
  let marking = 0;
  const markLayout = (msg) => {
    markScrollers(root, msg.ui.scrollHint);
    glossary?.link(main, msg);
  };
  const markSoon = () => {
    marking ||= requestAnimationFrame(() => {
      marking = 0;
      markLayout(wordsNow());
    });
  };

  function render(changed, { announce = false, arrive = false } = {}) {
    const ctx = contextNow();
    const { msg, scene, steps, stepId, state } = ctx;
    // the player's counter and scrubber follow the number of steps (the online softmax's B)
    if (steps.length !== stepCount) changed = new Set([...changed, "steps"]);
    stepCount = steps.length;
    if (changed.has("*") || changed.has("lang") || changed.has("scene")) {
      if (page) {
        document.documentElement.lang = msg.htmlLang;
        document.title = `${msg.title} · ${msg.scenes[scene.id].name}`;
      }
      shell.className = page ? "walkthrough page" : `walkthrough${host.compact ? " compact" : ""}`;
      shell.lang = msg.htmlLang;
    }
    for (const layer of layers) {
      if (layer.node && !hit(layer.deps, changed)) continue;
      const next = drawn(layer, ctx);
      if (layer.node) {
        const kept = remember(root, layer.node);
        layer.node.replaceWith(next);
        layer.node = next;
        if (next.nodeType === 1) restore(root, next, kept);
        // a layer the new step does not draw (the check of a step with no table): its control
        // had the focus, which goes to the step's title, not to the page
        else if (kept.inside) root.querySelector("#step-title")?.focus({ preventScroll: true });
      } else {
        layer.node = next;
        layer.where === "top" ? shell.insertBefore(next, main) : main.append(next);
      }
    }
    if ([...changed].every((key) => key === "focus")) markSoon();
    else markLayout(msg);
    // a lab's own control changed: what it changes (marked data-result) is brought into view,
    // on a phone a screen below the control
    if (paramsOf(scene).some((p) => changed.has(p.id))) {
      root.querySelector(".step [data-result]")?.scrollIntoView({ block: "nearest" });
    }
    if (["*", "scene", "step"].some((k) => changed.has(k))) {
      showCurrent(root);
      litInView(root);
    } else if (changed.has("lang")) showCurrent(root);
    // from a link at the foot of a scene: the new scene's title, in view and focused
    if (arrive) root.querySelector("#scene-title")?.focus();
    if (announce) {
      const text = root.querySelector(".step-text").textContent;
      live.textContent = `${msg.ui.stepOf(state.step + 1, steps.length)}: ${msg.steps[stepId].title}. ${text}`;
    }
    if (focusAfter) restore(root, main, { inside: false, open: new Set() }, focusAfter);
    focusAfter = null;
    const stepChanged = lastStep !== undefined && lastStep !== `${state.scene}:${state.step}`;
    // a new step of the same scene begins at its title: brought back into view when the learner
    // had read down past it (a long step, on a phone)
    if (page && stepChanged && !changed.has("scene") && !arrive) {
      const title = root.querySelector("#step-title");
      if (title && title.getBoundingClientRect().top < 0) title.scrollIntoView({ block: "start" });
    }
    lastStep = `${state.scene}:${state.step}`;
    onChange?.(publicState(), stepChanged, () => paramsFromState(store.state, scene));
  }

  // Printing (the browser's, or "Print a worksheet") prints the worksheet; "Print the answer
  // key" its key, with the answers of the lesson's check, as a print of its own (the shell's
  // data-print says which: style.css).
  const printWorksheet = () => {
    shell.querySelector(":scope > .worksheet.sheet")?.remove();
    shell.append(worksheet(stepsToPrint(store, pageParts)));
  };
  const printKey = async () => {
    const ctx = contextNow();
    const at = lessonOfScene(ctx);
    const questions = at && quiz ? quiz.questionsOf(at.lesson.id, ctx.scenes) : [];
    let check;
    if (questions.length) {
      check = { questions, lesson: ctx.msg.ui.lesson(at.number, ctx.msg.ui.lessons[at.lesson.id]) };
      try {
        check.answers = await quiz.answers(questions);
      } catch {
        check.failed = true;
      }
    }
    shell.querySelector(":scope > .worksheet.key")?.remove();
    shell.append(answerKey(stepsToPrint(store, pageParts), check));
    shell.dataset.print = "key";
    print();
    // print() returns once the dialog is done with (afterprint says so too)
    delete shell.dataset.print;
  };
  const printed = () => delete shell.dataset.print;
  const publicState = () => publicStateOf(store);

  // ---- start ----

  // The live region stays while the rest is redrawn, so screen readers hear each change.
  shell.append(main);
  if (glossary) shell.append(glossary.panel);
  root.replaceChildren(shell, live);
  store.listen((changed, how) => render(changed, how));
  const onKey = keyHandler({
    state: () => store.state,
    steps: () => store.stepsOf(store.state).length,
    playback,
    controls: host.controls,
    page,
  });
  keyTarget.addEventListener("keydown", onKey);
  if (page) addEventListener("beforeprint", printWorksheet);
  if (page) addEventListener("afterprint", printed);
  // A narrower or wider column shows more or less of a table: the scroll cues follow; and
  // other words (a phone's copy of a text, a wide screen's): the glossary's links follow, as
  // they do a details opened or closed.
  const wordsNow = () => wordsFor(store.state.lang, store.byId[store.state.scene]);
  // The observer's first call comes at the width the first render measured: nothing to follow.
  let width;
  const resized = new ResizeObserver(([entry]) => {
    const was = width;
    width = entry.contentRect.width;
    if (was === undefined || was === width) return;
    markScrollers(root, wordsNow().ui.scrollHint);
    glossary?.link(main, wordsNow());
  });
  if (glossary) main.addEventListener("toggle", () => glossary.link(main, wordsNow()), true);
  render(new Set(["*"]), { announce: true });
  resized.observe(shell);

  const destroy = () => {
    if (marking) cancelAnimationFrame(marking);
    playback.stop();
    resized.disconnect();
    removeEventListener("beforeprint", printWorksheet);
    removeEventListener("afterprint", printed);
    keyTarget.removeEventListener("keydown", onKey);
    root.replaceChildren();
  };
  return controller(store, playback, publicState, destroy);
}

/** What the page, the element and the iframe call: the walkthrough's controller. */
function controller(store, playback, publicState, destroy) {
  const { update } = store;
  return {
    get state() {
      return publicState();
    },
    goTo(step) {
      if (!Number.isFinite(step)) throw new Error(`goTo: the step must be a number, not ${step}`);
      playback.go(Math.round(step));
    },
    play: () => playback.set(true),
    pause: () => playback.set(false),
    setLang(lang) {
      if (Object.hasOwn(languages, lang) && lang !== store.state.lang)
        update({ lang }, { announce: true });
    },
    /** Predict mode on or off: each step's results hidden until the learner has answered. */
    setPredict(on) {
      if (Boolean(on) !== store.state.predict) update({ predict: Boolean(on) });
    },
    setScene: (id) =>
      Object.hasOwn(store.byId, id) &&
      id !== store.state.scene &&
      update({ scene: id }, { announce: true }),
    /** A scene's step at once (from 0; the page's Back after a review link): said and focused. */
    show(id, step) {
      if (!Object.hasOwn(store.byId, id) || !Number.isInteger(step)) return;
      if (id !== store.state.scene || step !== store.state.step) {
        update({ scene: id, step }, { announce: true, arrive: true });
      }
    },
    /** Replaces inputs ({ x, wq, … } as arrays of rows); throws the core's error if rejected. */
    setInputs(edits) {
      const scene = store.byId[store.state.scene];
      const names = Object.keys(scene.inputs).join(", ");
      if (!edits || typeof edits !== "object") throw new Error(`setInputs: give { ${names} }`);
      for (const [id, rows] of Object.entries(edits)) {
        if (!scene.inputs[id]) throw new Error(`setInputs: ${id} is not an input here (${names})`);
        if (!Array.isArray(rows) || !rows.every(Array.isArray)) {
          throw new Error(`setInputs: ${id} must be an array of rows of numbers`);
        }
      }
      update({ edits });
      if (store.state.notice) {
        throw new Error(wordsFor(store.state.lang, scene).coreError(store.state.notice.core));
      }
    },
    destroy,
  };
}
