// workers-words.test.mjs: the note beside the labs' choice of workers says the state it is
// given, in both languages: the count in use beside "workers" and the device's cores beside
// "reports"; the count asked for and the count started, each in its place, when fewer started;
// the page's own thread where no worker runs (here in Node, as from a file: the choice is off).
import { test } from "node:test";
import assert from "node:assert/strict";
import { installTextDom } from "./text-dom.mjs";
import { workersControl, workersNote } from "../../web/labs/gpt/workers.js";

installTextDom();

const read = {
  en: {
    shared:
      /^Each step is (?:shared among (?<n>\d+) workers, which can each run on a processor core of their own|taken by (?<one>1) worker) \(this device reports (?<cores>\d+) cores?\)\./,
    fewer: /^(?<asked>\d+) asked for, (?<n>\d+) started: this browser would not start more\./,
    alone: /^Opened from a file, the page trains on its own thread/,
  },
  zh: {
    shared:
      /^每一步由 (?:(?<n>\d+) 个工作线程分担，每个可以各用一个处理器核心|(?<one>1) 个工作线程完成)（这台设备报告有 (?<cores>\d+) 个处理器核心）。/,
    fewer: /^要了 (?<asked>\d+) 个，只启动了 (?<n>\d+) 个：浏览器不肯再开。/,
    alone: /^从文件打开时，页面在自己的线程里/,
  },
};

for (const lang of ["en", "zh"]) {
  test(`${lang}: each state's note, its numbers in their places`, () => {
    const says = (kind, state) => {
      const text = workersNote(lang, { served: true, ...state });
      const m = read[lang][kind].exec(text);
      assert.ok(m, `${kind}: ${text}`);
      // the count in use is n, or one: said as one worker
      const groups = Object.entries(m.groups ?? {}).filter(([, v]) => v !== undefined);
      return Object.fromEntries(groups.map(([k, v]) => [k === "one" ? "n" : k, Number(v)]));
    };
    assert.deepEqual(says("shared", { asked: 3, using: 3, cores: 8 }), { n: 3, cores: 8 });
    // before the worker answers, the count asked for
    assert.deepEqual(says("shared", { asked: 2, using: undefined, cores: 6 }), { n: 2, cores: 6 });
    assert.deepEqual(says("fewer", { asked: 4, using: 2, cores: 4 }), { asked: 4, n: 2 });
    assert.deepEqual(says("fewer", { asked: 3, using: 1, cores: 4 }), { asked: 3, n: 1 });
    assert.ok(read[lang].alone.test(workersNote(lang, { served: false, asked: 4, cores: 4 })));
    // one worker is not "shared", and its sentence says so in both languages
    assert.deepEqual(says("shared", { asked: 1, using: 1, cores: 2 }), { n: 1, cores: 2 });
    assert.doesNotMatch(
      workersNote(lang, { served: true, asked: 1, using: 1, cores: 2 }),
      /shared among 1|由 1 个工作线程分担/,
    );
  });

  test(`${lang}: where no worker runs the choice is off, at 1, and the note says why`, () => {
    const control = workersControl({ lang }, "x");
    const select = control.querySelector("select");
    assert.equal(select.getAttribute("disabled"), "");
    assert.equal(select.value, "1");
    assert.ok(read[lang].alone.test(control.querySelector("p").textContent));
  });
}
