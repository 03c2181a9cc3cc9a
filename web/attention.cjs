// attention.cjs: require("attention-by-hand"), for CommonJS on every Node in `engines`, also
// those that cannot require() an ES module (before 20.19 and 22.12). loadAttention() imports
// the ES module (attention.js), so require and import share one core and one WASM instance.
"use strict";

exports.loadAttention = () => import("./attention.js").then((core) => core.loadAttention());
