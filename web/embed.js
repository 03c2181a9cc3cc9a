// embed.js: the inside of embed.html. Its URL sets the element's attributes (scene, lang,
// step, src, layout; controls=0, nav=1, predict=1); the host page drives it with postMessage and
// hears its steps, errors and height. Every message either way carries
// source: "attention-walkthrough".
//
// To the iframe: { type: "goTo", step } | { type: "play" } | { type: "pause" }
//   | { type: "setInputs", inputs } | { type: "getState" }, each with an optional id.
// From the iframe: { type: "state", id, state } after each command, { type: "error", id?,
//   message }, { type: "ready", state }, { type: "stepchange", scene, step, stepId, total },
//   { type: "resize", height }.
// Commands are taken only from the parent window. With origin=https://your.site in the URL,
// only from that origin, and every message out goes to that origin alone.
(() => {
  const source = "attention-walkthrough";
  const params = new URLSearchParams(location.search);
  const pinned = params.get("origin");
  const target = pinned ?? "*";
  const walk = document.querySelector("attention-walkthrough");
  for (const name of ["scene", "lang", "step", "src", "layout"]) {
    if (params.has(name)) walk.setAttribute(name, params.get(name));
  }
  if (params.get("controls") !== "0") walk.setAttribute("controls", "");
  if (params.get("nav") === "1") walk.setAttribute("nav", "");
  if (params.get("predict") === "1") walk.setAttribute("predict", "");

  const send = (message) => parent !== window && parent.postMessage({ source, ...message }, target);
  const commands = {
    goTo: ({ step }) => walk.goTo(step),
    play: () => walk.play(),
    pause: () => walk.pause(),
    setInputs: ({ inputs }) => walk.setInputs(inputs),
    getState: () => true,
  };

  addEventListener("message", (event) => {
    if (event.source !== parent || parent === window) return;
    if (pinned !== null && event.origin !== pinned) return;
    const data = event.data;
    if (!data || typeof data !== "object" || !Object.hasOwn(commands, data.type)) return;
    const reply = (message) => send({ id: data.id, ...message });
    if (!walk.state) {
      reply({ type: "error", message: "not ready yet: wait for the ready message" });
      return;
    }
    // An error during a command is answered once, in the reply, not also as a loose message.
    let error;
    const onError = (e) => {
      error = e.detail.message;
      e.stopImmediatePropagation();
    };
    walk.addEventListener("error", onError);
    const ok = commands[data.type](data);
    walk.removeEventListener("error", onError);
    reply(ok === false ? { type: "error", message: error } : { type: "state", state: walk.state });
  });

  walk.addEventListener("ready", () => send({ type: "ready", state: walk.state }));
  walk.addEventListener("stepchange", (e) => send({ type: "stepchange", ...e.detail }));
  walk.addEventListener("error", (e) => send({ type: "error", message: e.detail.message }));
  let height = 0;
  new ResizeObserver(() => {
    const now = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (now !== height) send({ type: "resize", height: (height = now) });
  }).observe(document.documentElement);
})();
