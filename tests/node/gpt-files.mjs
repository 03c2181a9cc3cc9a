// gpt-files.mjs: the model lab's files from disk, for the Node tests (the page fetches them).
// Importing this is enough: every test that opens the model lab imports it first.
import { readFile } from "node:fs/promises";
import { readWith } from "../../web/labs/gpt/files.js";

const web = new URL("../../web/", import.meta.url);
readWith(async (path) => new Uint8Array(await readFile(new URL(path, web))));
