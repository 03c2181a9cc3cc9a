// count-from-1.test.mjs: the note under every step that says how cells are counted names the
// row and the column of its example the right way round, in each language (a zh note that said
// "scores[2][1] 是第 1 行、第 2 列" passed every test before).
import { test } from "node:test";
import assert from "node:assert/strict";
import { messages } from "../../web/i18n/index.js";

const readers = {
  en: (text) => text.match(/row (\d+), column (\d+)/),
  zh: (text) => text.match(/第 (\d+) 行、第 (\d+) 列/),
};

test("the count-from-1 note: cell [r][c] is row r, column c, in both languages", () => {
  for (const [lang, msg] of Object.entries(messages)) {
    const note = msg.ui.countFrom1;
    const cell = note.match(/\w+\[(\d+)\]\[(\d+)\]/);
    const said = readers[lang](note);
    assert.ok(cell && said, `${lang}: ${note}`);
    assert.deepEqual([said[1], said[2]], [cell[1], cell[2]], `${lang}: ${note}`);
    assert.notEqual(cell[1], cell[2], "an example whose row and column differ");
  }
});
