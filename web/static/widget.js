// Embed the town's ordinance assistant on any page with one tag:
//   <script src="https://ASSISTANT-HOST/widget.js" defer></script>
// It adds a "Questions about town rules?" button that opens the chat in a labelled frame.
(function () {
  "use strict";
  var me = document.currentScript;
  var origin = me ? new URL(me.src, window.location.href).origin : "";
  var box = document.createElement("div");
  box.style.cssText = "position:fixed;right:1rem;bottom:1rem;z-index:2147483000;display:flex;flex-direction:column;align-items:flex-end;gap:.5rem;max-width:calc(100vw - 2rem)";
  var frame = document.createElement("iframe");
  frame.title = "Town ordinance assistant chat";
  frame.hidden = true;
  frame.style.cssText = "width:24rem;max-width:100%;height:34rem;max-height:80vh;border:2px solid #0a4a82;border-radius:.5rem;background:#fff";
  var btn = document.createElement("button");
  btn.type = "button";
  btn.textContent = "Questions about town rules?";
  btn.setAttribute("aria-expanded", "false");
  btn.style.cssText = "font:inherit;font-size:1rem;color:#fff;background:#0a4a82;border:2px solid #fff;border-radius:2rem;padding:.6rem 1.1rem;cursor:pointer;box-shadow:0 2px 6px rgba(0,0,0,.3)";
  btn.addEventListener("click", function () {
    var open = frame.hidden;
    if (open && !frame.src) frame.src = origin + "/chat?embed=1";
    frame.hidden = !open;
    btn.setAttribute("aria-expanded", open ? "true" : "false");
    btn.textContent = open ? "Close the assistant" : "Questions about town rules?";
    if (open) frame.focus();
  });
  box.appendChild(frame);
  box.appendChild(btn);
  (document.body || document.documentElement).appendChild(box);
})();
