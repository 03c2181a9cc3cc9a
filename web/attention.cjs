// attention.cjs: require("attention-by-hand"), for CommonJS on every Node in `engines`, also
// those that cannot require() an ES module (before 20.19 and 22.12). Each function imports the
// ES module (attention.js), so require and import share one core and one WASM instance.
"use strict";

const esm = () => import("./attention.js");

exports.loadAttention = () => esm().then((core) => core.loadAttention());
exports.loadLabs = () => esm().then((core) => core.loadLabs());
