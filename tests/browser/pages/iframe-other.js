// iframe-other.js: a host page for the origin tests. The embed's URL comes in the hash; a
// second frame, a sibling from the embed's own origin, can be told to send it commands.
// window.heard holds what the embed sends to this page.
const embedUrl = decodeURIComponent(location.hash.slice(1));
window.heard = [];
addEventListener("message", (event) => {
  if (event.data?.source === "attention-walkthrough") window.heard.push(event.data);
});
const frame = document.createElement("iframe");
frame.title = "attention walkthrough";
frame.src = embedUrl;
const sibling = document.createElement("iframe");
sibling.title = "a sibling";
sibling.src = new URL("sibling.html", new URL(embedUrl).origin + location.pathname).href;
document.body.append(frame, sibling);
window.send = (message) => frame.contentWindow.postMessage(message, "*");
window.sendFromSibling = (message) => sibling.contentWindow.postMessage({ relay: message }, "*");
