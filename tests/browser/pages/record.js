// record.js: test helper. Before the element's script loads, it records every event the
// elements fire into window.events, and counts WASM instantiations in window.wasmInstances.
window.events = [];
for (const element of document.querySelectorAll("attention-walkthrough")) {
  for (const type of ["ready", "stepchange", "error"]) {
    element.addEventListener(type, (e) =>
      window.events.push({ id: element.id, type, detail: JSON.parse(JSON.stringify(e.detail)) }),
    );
  }
}
window.wasmInstances = 0;
for (const name of ["instantiate", "instantiateStreaming"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (...args) {
    window.wasmInstances++;
    return original.apply(this, args);
  };
}
