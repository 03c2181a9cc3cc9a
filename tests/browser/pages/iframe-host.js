// iframe-host.js: what a host page does with embed.html: it listens to the iframe's messages
// (kept in window.messages for the test) and sets the iframe's height from resize messages.
window.messages = [];
addEventListener("message", (event) => {
  if (event.data?.source !== "attention-walkthrough") return;
  window.messages.push(event.data);
  if (event.data.type === "resize") {
    document.getElementById("frame").style.height = `${event.data.height}px`;
  }
});
