// embedding.js: turns each <template data-snippet> on embedding.html into the live example and
// the snippet beside it, from one source. The live copy loads files from this folder instead
// of https://your.site/ and leaves out script tags (the page has loaded the element already).
for (const template of document.querySelectorAll("template[data-snippet]")) {
  const snippet = template.innerHTML
    .replace(/=""/g, "") // controls="" is written controls
    .replace(/^\n/, "")
    .replace(/^ {10}/gm, "")
    .trimEnd();
  const live = document.createElement("div");
  for (const node of [...template.content.cloneNode(true).childNodes]) {
    if (node.nodeName === "SCRIPT") continue;
    if (node.nodeType === Node.ELEMENT_NODE) {
      for (const attr of ["src"]) {
        const value = node.getAttribute(attr);
        if (value?.startsWith("https://your.site/")) {
          node.setAttribute(attr, value.replace("https://your.site/", ""));
        }
      }
    }
    live.append(node);
  }
  const code = document.createElement("code");
  code.textContent = snippet;
  const pre = document.createElement("pre");
  pre.tabIndex = 0; // it scrolls sideways, so a keyboard must be able to reach it
  pre.append(code);
  const way = document.createElement("div");
  way.className = "way";
  way.append(live, pre);
  template.replaceWith(way);
}

// The iframe example: its resize messages size it, and two buttons drive it.
const frame = document.getElementById("walkthrough");
const state = document.getElementById("iframe-state");
addEventListener("message", (event) => {
  if (event.data?.source !== "attention-walkthrough") return;
  if (event.data.type === "resize") frame.style.height = `${event.data.height}px`;
  if (event.data.type === "state" || event.data.type === "stepchange") {
    const s = event.data.state ?? event.data;
    state.textContent = `step ${s.step}: ${s.stepId}`;
  }
});
for (const button of document.querySelectorAll("[data-iframe-step]")) {
  button.closest("p").hidden = false;
  button.addEventListener("click", () =>
    frame.contentWindow.postMessage({ type: "goTo", step: Number(button.dataset.iframeStep) }, "*"),
  );
}
