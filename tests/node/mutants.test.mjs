// mutants.test.mjs: the committed C++ mutants (tests/mutants/core.json, for make mutate) still
// apply: each one's text is found exactly once in its file, so that a refactoring cannot leave
// a mutant that silently changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);
const { mutants } = JSON.parse(readFileSync(new URL("tests/mutants/core.json", root), "utf8"));

test("every committed mutant's text is in its file, once", () => {
  assert.ok(mutants.length >= 30, `${mutants.length} mutants`);
  for (const { file, find } of mutants) {
    const text = readFileSync(new URL(file, root), "utf8");
    assert.equal(text.split(find).length - 1, 1, `${file}: ${find}`);
  }
});
