// onnx.mjs: the bench's ONNX attention graph, written as protobuf bytes by hand (there is no
// onnx package for JS here, and PyPI is out of reach). Only the fields the graph needs, from
// onnx.proto: ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, ValueInfoProto.
//   O = Softmax(Q·Kᵀ × scale [+ mask]) · V, on [batch, heads, n, d], opset 17.

const encoder = new TextEncoder();

function varint(n) {
  const out = [];
  let x = BigInt(n);
  if (x < 0n) x += 1n << 64n; // negative int64s take ten bytes
  do {
    let byte = Number(x & 0x7fn);
    x >>= 7n;
    if (x) byte |= 0x80;
    out.push(byte);
  } while (x);
  return out;
}

// One field: its key (number and wire type) and its value.
const field = {
  int: (number, value) => [...varint(number << 3), ...varint(value)],
  bytes: (number, bytes) => [...varint((number << 3) | 2), ...varint(bytes.length), ...bytes],
  string: (number, text) => field.bytes(number, encoder.encode(text)),
  message: (number, fields) => field.bytes(number, fields.flat()),
};

const FLOAT = 1; // TensorProto.DataType
const INT = 2; // AttributeProto.AttributeType
const INTS = 7;

function valueInfo(number, name, dims) {
  const shape = dims.map((d) => field.message(1, [field.int(1, d)]));
  const tensorType = [field.int(1, FLOAT), field.message(2, shape)];
  return field.message(number, [
    field.string(1, name),
    field.message(2, [field.message(1, tensorType)]),
  ]);
}

function node(op, inputs, outputs, attributes = []) {
  return field.message(1, [
    ...inputs.map((x) => field.string(1, x)),
    ...outputs.map((x) => field.string(2, x)),
    field.string(3, `${op}_${outputs[0]}`),
    field.string(4, op),
    ...attributes,
  ]);
}

function floatTensor(name, dims, values) {
  const raw = new Uint8Array(Float32Array.from(values).buffer);
  return field.message(5, [
    ...dims.map((d) => field.int(1, d)),
    field.int(2, FLOAT),
    field.string(8, name),
    field.bytes(9, raw),
  ]);
}

/**
 * The ONNX model bytes of scaled dot-product attention for fixed shapes: inputs Q, K, V of
 * [batch, heads, n, d], output O. Causal adds an (n, n) mask of -1e30 above the diagonal.
 */
export function attentionModel({ batch, heads, nQ, nK, dK, dV }, { causal = false } = {}) {
  const nodes = [
    node(
      "Transpose",
      ["K"],
      ["Kt"],
      [
        field.message(5, [
          field.string(1, "perm"),
          ...[0, 1, 3, 2].map((p) => field.int(8, p)),
          field.int(20, INTS),
        ]),
      ],
    ),
    node("MatMul", ["Q", "Kt"], ["scores"]),
    node("Mul", ["scores", "scale"], ["scaled"]),
  ];
  const initializers = [floatTensor("scale", [], [1 / Math.sqrt(dK)])];
  let logits = "scaled";
  if (causal) {
    const mask = Array.from({ length: nQ * nK }, (_, c) =>
      c % nK > Math.floor(c / nK) ? -1e30 : 0,
    );
    initializers.push(floatTensor("mask", [nQ, nK], mask));
    nodes.push(node("Add", ["scaled", "mask"], ["masked"]));
    logits = "masked";
  }
  nodes.push(
    node(
      "Softmax",
      [logits],
      ["weights"],
      [field.message(5, [field.string(1, "axis"), field.int(3, -1), field.int(20, INT)])],
    ),
    node("MatMul", ["weights", "V"], ["O"]),
  );
  const graph = [
    ...nodes,
    field.string(2, "attention"),
    ...initializers,
    valueInfo(11, "Q", [batch, heads, nQ, dK]),
    valueInfo(11, "K", [batch, heads, nK, dK]),
    valueInfo(11, "V", [batch, heads, nK, dV]),
    valueInfo(12, "O", [batch, heads, nQ, dV]),
  ];
  return Uint8Array.from([
    ...field.int(1, 8), // ir_version
    ...field.string(2, "attention-by-hand bench"),
    ...field.message(7, graph),
    ...field.message(8, [field.string(1, ""), field.int(2, 17)]), // opset_import
  ]);
}
