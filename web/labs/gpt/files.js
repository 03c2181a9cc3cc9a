// labs/gpt/files.js: the model lab's files. The weights and their description are committed
// beside this file (tang.bin, tang.json, written by `make train`; baselines.json,
// ablation.json and glosses.json, written by tools/baselines.mjs, ablation.mjs and glosses.mjs);
// the token streams it trains
// on, and the own-text lab's presets, are built from Debian's packages into web/generated/ and
// never committed. The page
// fetches them relative to itself when the lab opens; the Node tests read them from disk
// (readWith).

const paths = {
  config: "labs/gpt/tang.json",
  weights: "labs/gpt/tang.bin",
  baselines: "labs/gpt/baselines.json",
  ablation: "labs/gpt/ablation.json",
  glosses: "labs/gpt/glosses.json",
  streams: "generated/tang-streams.bin",
};

let read = async (path) => {
  const response = await fetch(new URL(path, document.baseURI));
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
};

/** Where the files come from: read(path relative to web/) → a promise of bytes. */
export function readWith(reader) {
  read = reader;
}

/** tang.json: the configuration, the vocabulary, the loss curve, the heads' measurements. */
export async function readConfig() {
  return JSON.parse(new TextDecoder().decode(await read(paths.config)));
}

/** baselines.json: the held-out losses of the uniform, unigram and bigram models. */
export async function readBaselines() {
  return JSON.parse(new TextDecoder().decode(await read(paths.baselines)));
}

/** ablation.json: the held-out losses with the named heads switched off. */
export async function readAblation() {
  return JSON.parse(new TextDecoder().decode(await read(paths.ablation)));
}

/** glosses.json: { character: [pinyin, English gloss] } (CC-CEDICT's, see CC-CEDICT.txt). */
export async function readGlosses() {
  return JSON.parse(new TextDecoder().decode(await read(paths.glosses)));
}

/** The own-text lab's preset `name` (tang300, song100, genesis): UTF-8 bytes, a poem or a
 * verse a line, built by make streams from Debian's packages into generated/texts/. */
export const readPreset = (name) => read(`generated/texts/${name}.txt`);

/** tang.bin: the weights, int8 with a float32 scale per matrix row. */
export const readWeights = () => read(paths.weights);

/**
 * The token streams: { train, validation, heldOut } as Uint16Arrays, from three uint32
 * lengths and then the ids as uint16, little-endian.
 */
export async function readStreams() {
  const bytes = await read(paths.streams);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengths = [0, 1, 2].map((k) => view.getUint32(4 * k, true));
  const ids = (from, n) =>
    Uint16Array.from({ length: n }, (_, i) => view.getUint16(from + 2 * i, true));
  const starts = [12, 12 + 2 * lengths[0], 12 + 2 * (lengths[0] + lengths[1])];
  if (bytes.byteLength !== starts[2] + 2 * lengths[2]) {
    throw new Error(`${paths.streams} has ${bytes.byteLength} bytes, not what its lengths say`);
  }
  const [train, validation, heldOut] = lengths.map((n, k) => ids(starts[k], n));
  return { train, validation, heldOut };
}
