// element.cjs: require("attention-by-hand/element"), for CommonJS: imports the element's ES
// module, which defines <attention-walkthrough> in a browser (and nothing in Node) with the
// core that every require and import of "attention-by-hand" shares. module.exports is a
// promise that settles once the element's module has run.
"use strict";

module.exports = import("./generated/attention-walkthrough.mjs");
