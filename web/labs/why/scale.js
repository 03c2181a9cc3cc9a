// labs/why/scale.js: the scale lab. It times the core on the reader's own machine, one head with
// d = 64 and n = 64 … 4,096 tokens: the fast float32 kernel without the weights, the same under
// a causal mask, and the Eigen reference (float64, with the weights) up to 2,048 tokens, each
// while its next call should stay under 0.6 s. A log-log plot shows the n² growth and the causal
// half. Every figure is measured live with performance.now() around a call of the core; the
// page computes only medians and the plot's coordinates.
import { el, svg } from "../../views.js";
import { random } from "../../random.js";

const d = 64;
const sizes = [64, 128, 256, 512, 1024, 2048, 4096];
const variants = [
  { id: "fast", options: { weights: false } },
  { id: "causal", options: { weights: false, causal: true } },
  // Its trace keeps several n×n float64 matrices: 4,096 tokens would take over 600 MB.
  { id: "reference", options: { reference: true }, upTo: 2048, growth: 8 },
];
const minMs = 150; // each figure is the median of the samples taken in at least this long
// A variant stops growing when its next call could take longer than this: the page answers a
// click only between calls. n twice as large does four times the work; a call that leaves the
// processor's caches (the reference's n×n float64 matrices) can take ten times as long, so its
// next call is guessed at eight times the last.
const slowMs = 600;

const pause = () => new Promise((done) => setTimeout(done));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The run in progress, if any: { times } as they come. Its figures are drawn into the table and
// the plot in place, without a redraw of the page (which would swallow a click on Stop); the
// state gets them when the run ends or stops.
let run = null;
const timesOf = (state) => run?.times ?? state.scale?.times ?? {};

/**
 * Measures every size and variant in turn into `times` (variant → n → ms): `drawn()` after each
 * figure; it stops where `alive()` turns false. `sizes` is the page's unless given.
 */
export async function measure(core, times, { alive, drawn, upTo = sizes.at(-1) }) {
  const stopped = new Set();
  const next = random(7);
  for (const n of sizes.filter((n) => n <= upTo)) {
    const data = () => Float32Array.from({ length: n * d }, () => next() * 2 - 1);
    const [q, k, v] = [data(), data(), data()];
    const shape = { batch: 1, heads: 1, nQ: n, nK: n, dK: d, dV: d };
    for (const variant of variants) {
      if (stopped.has(variant.id) || n > (variant.upTo ?? n)) continue;
      const call = () => core.attentionBatched(q, k, v, shape, variant.options);
      const time = (count) => {
        const t = performance.now();
        for (let c = 0; c < count; c++) call();
        return (performance.now() - t) / count;
      };
      // One call first: a slow one is its own sample. Otherwise a sample is as many calls as
      // take 5 ms, since a browser's clock may tick only every 0.1 ms. A size's first call may
      // pay for more than the call (the memory it grows, code compiled on first use: 190 ms
      // once at n = 64): a slow one is timed again, and the second is the figure.
      let first = time(1);
      await pause();
      if (!alive()) return;
      if (first >= minMs) {
        first = time(1);
        await pause();
        if (!alive()) return;
      }
      const batch = first >= minMs ? 0 : Math.max(1, Math.ceil(5 / Math.max(first, 0.01)));
      const calls = batch ? [] : [first];
      const begun = performance.now();
      while (batch && (calls.length < 3 || performance.now() - begun < minMs)) {
        calls.push(time(batch));
        await pause();
        if (!alive()) return;
      }
      const t = median(calls);
      times[variant.id] = { ...times[variant.id], [n]: t };
      if (t * (variant.growth ?? 4) > slowMs) stopped.add(variant.id);
      drawn();
    }
  }
}

const ms = (t) => (t === undefined ? "–" : t < 10 ? t.toFixed(2) : t.toFixed(1));

function table({ state, msg }) {
  const times = timesOf(state);
  const w = msg.scale;
  return el(
    "div",
    { class: "scroll", "data-scale": "table" },
    el(
      "table",
      { class: "scale-table" },
      el("caption", { text: w.tableCaption }),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col", text: "n" }),
          variants.map((v) => el("th", { scope: "col", text: w.variants[v.id] })),
        ),
      ),
      el(
        "tbody",
        {},
        sizes.map((n) =>
          el(
            "tr",
            { "data-n": n },
            el("th", { scope: "row", text: n.toLocaleString("en") }),
            variants.map((v) => el("td", { "data-variant": v.id, text: ms(times[v.id]?.[n]) })),
          ),
        ),
      ),
    ),
  );
}

// Redraws the table and the plot where they are, in the run's latest context (the language may
// have changed); false once the lab is off screen.
function redraw(mine) {
  const parts = { table, plot: plotPanel };
  const shown = mine.ctx.root.querySelectorAll("[data-scale]");
  for (const node of shown) node.replaceWith(parts[node.dataset.scale](mine.ctx));
  return shown.length > 0;
}

function runPanel(ctx) {
  const { msg, update } = ctx;
  const w = msg.scale;
  if (run) run.ctx = ctx;
  const finish = (mine) => {
    if (run !== mine) return;
    run = null;
    update({ scale: { times: mine.times } });
  };
  const start = () => {
    const mine = { times: Object.fromEntries(variants.map((v) => [v.id, {}])), ctx };
    run = mine;
    update({ scale: { times: {} } });
    measure(ctx.core, mine.times, {
      alive: () => run === mine,
      drawn: () => redraw(mine) || (run = null),
    }).then(() => finish(mine));
  };
  return el(
    "section",
    { class: "scale-lab" },
    el(
      "p",
      {},
      el("button", {
        type: "button",
        id: "scale-run",
        text: run ? w.stop : w.run,
        onclick: () => (run ? finish(run) : start()),
      }),
      " ",
      el("span", { "aria-live": "polite", text: run ? w.running : "" }),
    ),
    table(ctx),
  );
}

// The log-log plot: time against n, one line per variant, and a dashed n² guide through the
// fast path's first figure.
function plotPanel({ state, msg }) {
  const times = timesOf(state);
  const w = msg.scale;
  const all = variants.flatMap((v) => Object.values(times[v.id] ?? {}));
  if (!all.length) return el("p", { class: "hint", text: w.noTimes, "data-scale": "plot" });
  const [width, height, pad] = [320, 220, 36];
  const lo = Math.log2(Math.min(...all) / 2);
  const hi = Math.log2(Math.max(...all) * 2);
  const x = (n) => pad + ((Math.log2(n) - 6) / 6) * (width - 2 * pad);
  const y = (t) => height - pad - ((Math.log2(t) - lo) / (hi - lo)) * (height - 2 * pad);
  const plot = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": w.plotLabel,
    class: "scale-plot",
  });
  plot.append(
    svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
    svg("line", { x1: pad, y1: pad / 2, x2: pad, y2: height - pad, class: "axis" }),
    svg("text", { x: width / 2, y: height - 4, "text-anchor": "middle" }, w.xAxis),
    svg("text", { x: 4, y: pad / 2 - 4 }, w.yAxis),
  );
  // A grid line and a label at every power of ten of milliseconds in range.
  for (let e = Math.ceil(lo / Math.log2(10)); e <= hi / Math.log2(10); e++) {
    const t = 10 ** e;
    plot.append(
      svg("line", { x1: pad, y1: y(t), x2: width - pad, y2: y(t), class: "grid" }),
      svg("text", { x: pad - 4, y: y(t) + 3, "text-anchor": "end" }, String(t)),
    );
  }
  for (const n of sizes) {
    plot.append(svg("text", { x: x(n), y: height - pad + 14, "text-anchor": "middle" }, n));
  }
  const first = times.fast?.[sizes[0]];
  if (first) {
    const guide = sizes.map((n) => [x(n), y(first * (n / sizes[0]) ** 2)]);
    const inside = guide.filter(([, gy]) => gy >= pad / 2);
    plot.append(
      svg("polyline", { points: inside.map((p) => p.join(",")).join(" "), class: "guide" }),
    );
  }
  for (const v of variants) {
    const points = sizes.filter((n) => times[v.id]?.[n]).map((n) => [x(n), y(times[v.id][n])]);
    if (!points.length) continue;
    plot.append(
      svg("polyline", {
        points: points.map((p) => p.join(",")).join(" "),
        class: `series ${v.id}`,
        "data-variant": v.id,
      }),
      ...points.map(([px, py]) => svg("circle", { cx: px, cy: py, r: 3, class: v.id })),
    );
  }
  return el(
    "figure",
    { class: "scale-figure", "data-scale": "plot" },
    plot,
    el(
      "figcaption",
      {},
      el(
        "ul",
        { class: "legend" },
        variants.map((v) => el("li", { class: v.id, text: w.variants[v.id] })),
        el("li", { class: "guide", text: w.guide }),
      ),
    ),
  );
}

const words = {
  en: {
    steps: {
      measure: {
        title: "Time it here",
        text: "Your machine runs attention for one head with d = 64 and n queries against n keys, n from 64 to 4,096. The fast path is float32 with wasm SIMD and does not keep the n×n weights; the reference is the readable Eigen code of the other scenes, in float64, with the weights, up to 2,048 tokens. Each figure is the median of the calls made in 150 ms (or one call, when one takes longer), measured now. A line stops before a call that could take over 0.6 s, so that the page keeps answering your clicks.",
      },
      growth: {
        title: "Twice the tokens, four times the work",
        text: "On log-log axes a line of slope 2 is n²: every query meets every key, so doubling n doubles both and quadruples the scores. The dashed line is n² through the first figure. Under a causal mask each query sees only the keys before it, about half of them, and the fast path skips the tiles that are wholly masked: its line runs about half as high. These are measurements: other tabs and programs share the processor, so figures move from run to run, and at small n each call's fixed costs hide the n² growth.",
      },
    },
    ui: {},
    scale: {
      run: "Measure",
      stop: "Stop",
      running: "Measuring…",
      tableCaption: "Milliseconds per call, measured on this machine",
      variants: {
        fast: "fast, float32",
        causal: "fast, causal",
        reference: "reference, float64",
      },
      guide: "n² through the first figure",
      noTimes: "Press Measure in step 1: the plot shows what your machine measures.",
      plotLabel: "Time per call against n, on log-log axes",
      xAxis: "n (tokens)",
      yAxis: "ms",
    },
    scenes: {
      scale: {
        title: "How long does attention take on your machine?",
        analogy:
          "The scenes work with three or five tokens. A model reads thousands: here the same core runs at that scale, in this tab.",
      },
    },
  },
  zh: {
    steps: {
      measure: {
        title: "在这里计时",
        text: "你的设备计算一个注意力头：d = 64，n 个查询对 n 个键，n 从 64 到 4,096。快速路径用 float32 和 wasm SIMD，不保留 n×n 的权重；参考实现是其他场景用的 Eigen 代码，float64，保留权重，最多 2,048 个词元。每个数字是 150 毫秒内各次调用的中位数（单次调用更久时，就是那一次），此刻测得。下一次调用可能超过 0.6 秒时，这条线就停下，好让页面随时响应你的点击。",
      },
      growth: {
        title: "词元翻倍，工作量翻四倍",
        text: "在双对数坐标上，斜率为 2 的直线就是 n²：每个查询都要与每个键相遇，n 翻倍时两者都翻倍，分数的个数变为四倍。虚线是过第一个数字的 n²。加上因果掩码后，每个查询只看它之前的键，约一半；快速路径跳过整块被遮住的区域，所以它的线约低一半。这些是实测的数字：其他标签页和程序也在用处理器，每次测量会有出入；n 很小时，每次调用的固定开销会掩盖 n² 的增长。",
      },
    },
    ui: {},
    scale: {
      run: "开始测量",
      stop: "停止",
      running: "正在测量…",
      tableCaption: "每次调用的毫秒数，在这台设备上测得",
      variants: {
        fast: "快速，float32",
        causal: "快速，因果掩码",
        reference: "参考实现，float64",
      },
      guide: "过第一个数字的 n²",
      noTimes: "请在第 1 步点“开始测量”：图上显示的是你的设备测得的数字。",
      plotLabel: "每次调用的时间与 n 的关系，双对数坐标",
      xAxis: "n（词元数）",
      yAxis: "毫秒",
    },
    scenes: {
      scale: {
        title: "注意力在你的设备上要算多久？",
        analogy:
          "前面的场景只有三五个词元。模型要读成千上万个：这里用同一个核心在这个标签页里按这个规模计算。",
      },
    },
  },
};

export const scaleLab = {
  id: "scale",
  styles: ["labs/why/style.css"],
  words,
  // The measurements are the lab's numbers; the core's trace is not shown.
  compute: () => ({ inputs: {}, trace: { output: [] } }),
  steps: () => [
    { id: "measure", panels: [], inStep: ["run"] },
    { id: "growth", panels: [], inStep: ["plot", "run"] },
  ],
  view: () => ({ focusMatrix: null, matrices: [] }),
  panels: { run: runPanel, plot: plotPanel },
};

export default [{ id: "scale", lab: scaleLab, inputs: {} }];
