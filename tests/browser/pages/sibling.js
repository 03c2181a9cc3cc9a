// sibling.js: relays { relay: command } to the first frame of its parent, the embed, as a
// window that is not the embed's parent.
addEventListener("message", (event) => {
  if (event.data?.relay) parent.frames[0].postMessage(event.data.relay, "*");
});
