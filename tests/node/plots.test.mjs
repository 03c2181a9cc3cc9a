// plots.test.mjs: the pictures of the labs' plots, not only their tables. A line plot
// (labs/kit.js) and the model lab's loss plot (labs/gpt/plot.js) drawn on the text-only
// document: each series' path goes through its points in order, a larger value is drawn higher
// (SVG's y grows downward), later steps further right, the marked points on the path, and the
// loss plot's reference lines at their heights in the same order as their losses. A plot drawn
// upside down, or mirrored, fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom, elementsUnder } from "./text-dom.mjs";

installTextDom();
const { linePlot } = await import("../../web/labs/kit.js");
const { lossPlot } = await import("../../web/labs/gpt/plot.js");

const paths = (root, cls) =>
  elementsUnder(root)
    .filter((n) => n.tagName === "PATH" && (n.attributes.class ?? "").includes(cls))
    .map((n) =>
      [...n.attributes.d.matchAll(/[ML]\s*(-?[\d.]+),\s*(-?[\d.]+)/g)].map((m) => [
        Number(m[1]),
        Number(m[2]),
      ]),
    );

/** Checks that the drawn points follow the data: x rises with x, y falls as the value rises. */
function followsData(drawn, points, what) {
  assert.equal(drawn.length, points.length, `${what}: one drawn point per point`);
  for (let i = 1; i < points.length; i++) {
    const [x, y] = points[i];
    const [px, py] = points[i - 1];
    assert.ok(
      Math.sign(drawn[i][0] - drawn[i - 1][0]) === Math.sign(x - px),
      `${what}: x order at ${i}`,
    );
    // a larger value higher up: the drawn y moves the other way from the value
    assert.ok(
      Math.sign(drawn[i][1] - drawn[i - 1][1]) === -Math.sign(y - py),
      `${what}: y at ${i}`,
    );
  }
}

test("a line plot draws a falling loss falling, and each point where its value is", () => {
  const loss = [
    [1, 0.9],
    [2, 0.5],
    [3, 0.6],
    [4, 0.1],
  ];
  const rising = [
    [1, 0.1],
    [2, 0.3],
    [3, 0.35],
    [4, 0.8],
  ];
  const figure = linePlot({
    id: "p",
    title: "test",
    series: [
      { label: "L", points: loss },
      { label: "α", points: rising },
    ],
    xLabel: "step",
    yLabel: "L",
    xTicks: [1, 2, 3, 4],
    yTicks: [0, 0.5, 1],
    mark: 3,
    table: null,
  });
  const [drawnLoss, drawnRising] = paths(figure, "series");
  followsData(drawnLoss, loss, "the loss");
  followsData(drawnRising, rising, "the rising series");
  // the circles sit on the path's points
  const circles = elementsUnder(figure)
    .filter((n) => n.tagName === "CIRCLE" && n.attributes.class === "series-0")
    .map((c) => [Number(c.attributes.cx), Number(c.attributes.cy)]);
  assert.deepEqual(circles, drawnLoss);
  // the same value in two series is drawn at the same height
  const zero = elementsUnder(figure).find(
    (n) => n.tagName === "TEXT" && n.textContent === "0" && n.attributes.class.includes("end"),
  );
  const one = elementsUnder(figure).find(
    (n) => n.tagName === "TEXT" && n.textContent === "1" && n.attributes.class.includes("end"),
  );
  assert.ok(Number(one.attributes.y) < Number(zero.attributes.y), "the tick 1 above the tick 0");
});

test("the loss plot: the curves and the reference lines in the order of their losses", () => {
  const train = [
    [1, 7.3],
    [50, 6.1],
    [100, 5.4],
  ];
  const levels = [
    { label: "uniform", y: 7.31 },
    { label: "unigram", y: 6.18 },
    { label: "bigram", y: 5.62 },
    { label: "shipped", y: 5.25 },
  ];
  const figure = lossPlot({
    id: "l",
    title: "loss",
    series: [{ label: "training", points: train }],
    levels,
    levelsKey: "other models",
    xLabel: "step",
    yLabel: "nats",
    xTicks: [1, 50, 100],
    table: null,
  });
  followsData(paths(figure, "series-0")[0], train, "the training loss");
  // the levels: dashed horizontal lines (drawn as series-2), highest loss first
  const lines = paths(figure, "series-2");
  for (const line of lines) assert.equal(line[0][1], line[1][1], "a level is horizontal");
  const heights = lines.map((p) => p[0][1]);
  // the key names each drawing by its class: the curve's, then the levels'
  const keys = elementsUnder(figure)
    .filter((n) => (n.attributes.class ?? "").startsWith("key "))
    .map((n) => [n.attributes.class, n.textContent]);
  assert.deepEqual(keys, [
    ["key series-0", "training"],
    ["key series-2", "other models"],
  ]);
  assert.equal(heights.length, levels.length, "one dashed line per level");
  for (let i = 1; i < heights.length; i++) {
    assert.ok(
      heights[i] > heights[i - 1],
      `${levels[i].label} is drawn below ${levels[i - 1].label}`,
    );
  }
});
