// text-model-files.test.mjs: the own-text lab's "Load a model" refusals, with each number beside
// its own side: a model of another text is refused naming the model's vocabulary (its size and
// first characters) and this text's, each the right one, and a model of this text loads.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadLabs } from "../../web/attention.js";
import { modelFromFiles, textModel } from "../../web/labs/gpt/text.js";

const core = await loadLabs();

// A text's lab model (its corpus read by the core), and that model's two files.
function textOf(text) {
  const corpus = core.textCorpus(new TextEncoder().encode(text));
  const config = { ...textModel.config, vocab: [...corpus.chars].length + 2 };
  const trainer = core.gptTrainer(config, corpus.train, { ...textModel.training, total: 10 });
  const params = trainer.params();
  trainer.close();
  const files = core.gptModelFiles({ config, params }, { chars: corpus.chars });
  return { shipped: { json: { config, chars: corpus.chars }, corpus }, files, corpus };
}

const mine = textOf("the cat sat on the mat\nthe dog sat on the log\n".repeat(12));
const other = textOf("床前明月光，疑是地上霜。举头望明月，低头思故乡。\n".repeat(12));

test("a model of another text is refused, each vocabulary's size and characters on its own side", () => {
  const theirs = other.shipped.json.config.vocab;
  const ours = mine.shipped.json.config.vocab;
  assert.notEqual(theirs, ours);
  assert.throws(
    () => modelFromFiles(core, mine.shipped, other.files.description, other.files.weights),
    (error) => {
      const said = error.message;
      const first = (chars) => [...chars].slice(0, 8).join("");
      assert.ok(
        said.startsWith(
          `chars: the model's vocabulary (${theirs} tokens, “${first(other.corpus.chars)}…”) is not this text's (${ours} tokens, “${first(mine.corpus.chars)}…”)`,
        ),
        said,
      );
      return true;
    },
  );
});

test("a model of this text loads, its weights those written", () => {
  const read = modelFromFiles(core, mine.shipped, mine.files.description, mine.files.weights);
  assert.equal(read.model.config.vocab, mine.shipped.json.config.vocab);
  assert.ok(Number.isFinite(read.heldOut));
});
