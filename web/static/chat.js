// The residents' chat. Bot text is inserted as text nodes (never HTML); links come only from the server's
// citation segments; buttons send the payload the bot offered (the server checks it against its list).
(function () {
  "use strict";
  var root = document.getElementById("chat");
  if (!root) return;
  var api = root.getAttribute("data-api");
  var log = document.getElementById("transcript");
  var form = document.getElementById("chat-form");
  var input = document.getElementById("chat-input");
  var send = document.getElementById("chat-send");
  var status = document.getElementById("chat-status");
  var conversation = null;
  var busy = false;
  var FAIL = "Sorry, the assistant is not answering right now. Please try again in a few minutes.";

  function post(path, body) {
    var ctrl = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctrl) ctrl.abort(); }, 20000);
    return fetch(api + path, {
      method: "POST", headers: {"Content-Type": "application/json"}, credentials: "omit",
      body: JSON.stringify(body), signal: ctrl ? ctrl.signal : undefined
    }).then(function (r) {
      clearTimeout(timer);
      return r.json().then(function (data) { return {ok: r.ok, status: r.status, data: data}; });
    }, function (e) { clearTimeout(timer); throw e; });
  }

  function clearChoices() {
    var old = log.querySelectorAll(".choices");
    for (var i = 0; i < old.length; i++) old[i].parentNode.removeChild(old[i]);
  }

  function link(text, href) {
    var a = document.createElement("a");
    a.href = href;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = text;
    return a;
  }

  function fill(el, parts) {
    (parts || []).forEach(function (part) {
      if (part.href && /^\/code\//.test(part.href)) el.appendChild(link(part.text, part.href));
      else el.appendChild(document.createTextNode(part.text));
    });
    return el;
  }

  // One native disclosure (closed): <details><summary>title</summary> list </details>.
  function disclosure(div, title, items, render) {
    if (!items || !items.length) return;
    var d = document.createElement("details");
    var s = document.createElement("summary");
    s.textContent = title;
    d.appendChild(s);
    var list = document.createElement(title === "How we worked it out" ? "ol" : "ul");
    items.forEach(function (item) { var li = document.createElement("li"); render(li, item); list.appendChild(li); });
    d.appendChild(list);
    div.appendChild(d);
  }

  function addAnswer(div, ans) {
    if (ans.rest && ans.rest.length) div.appendChild(fill(document.createElement("p"), ans.rest));
    disclosure(div, "How we worked it out", ans.steps, function (li, parts) { fill(li, parts); });
    disclosure(div, "Sources", ans.sources, function (li, src) {
      if (src.href && /^\/code\//.test(src.href)) li.appendChild(link(src.label, src.href));
      else li.appendChild(document.createTextNode(src.label));
      if (src.quote) li.appendChild(document.createTextNode(": \u201c" + src.quote + "\u201d"));
    });
    disclosure(div, "What our copy doesn\u2019t say", ans.gaps, function (li, text) { li.textContent = text; });
    disclosure(div, "Good to know", ans.caveats, function (li, parts) { fill(li, parts); });
  }

  function addMessage(who, parts, buttons, answer) {
    var div = document.createElement("div");
    div.className = "msg " + who + (answer ? " answer" : "");
    var label = document.createElement("span");
    label.className = "visually-hidden";
    label.textContent = who === "bot" ? "Assistant said: " : "You said: ";
    div.appendChild(label);
    var p = fill(document.createElement("p"), parts);
    if (answer) p.className = "lead";
    div.appendChild(p);
    if (answer) addAnswer(div, answer);
    if (buttons && buttons.length) {
      var ul = document.createElement("ul");
      ul.className = "choices";
      ul.setAttribute("aria-label", "Suggested replies");
      buttons.forEach(function (b) {
        var li = document.createElement("li");
        var btn = document.createElement("button");
        btn.type = "button";
        btn.textContent = b.title;
        btn.addEventListener("click", function () { choose(b); });
        li.appendChild(btn);
        ul.appendChild(li);
      });
      div.appendChild(ul);
    }
    log.appendChild(div);
    log.scrollTop = log.scrollHeight;
  }

  function showReplies(messages) {
    (messages || []).forEach(function (m) { addMessage("bot", m.parts, m.buttons, m.answer); });
  }

  function setBusy(on) {
    busy = on;
    send.disabled = on;
    status.textContent = on ? "The assistant is answering\u2026" : "";
  }

  function exchange(body, shown) {
    if (busy) return;
    clearChoices();
    addMessage("user", [{text: shown}], null);
    setBusy(true);
    input.focus();
    var go = function () { body.conversation_id = conversation; return post("/message", body); };
    var ready = conversation ? Promise.resolve() : start(true);
    ready.then(go).then(function (res) {
      if (!res.ok && res.status === 400 && /conversation/i.test((res.data && res.data.error) || "")) {
        conversation = null;
        return start(true).then(go);
      }
      return res;
    }).then(function (res) {
      if (res.ok) showReplies(res.data.messages);
      else addMessage("bot", [{text: (res.data && res.data.error) || FAIL}], null);
    }).catch(function () {
      addMessage("bot", [{text: FAIL}], null);
    }).then(function () { setBusy(false); input.focus(); });
  }

  function choose(button) {
    exchange({payload: button.payload}, button.title);
  }

  function start(quiet) {
    return post("/start", {}).then(function (res) {
      if (!res.ok) throw new Error("start failed");
      conversation = res.data.conversation_id;
      if (!quiet) showReplies(res.data.messages);
    });
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var text = input.value.trim();
    if (busy) { status.textContent = "Please wait for the answer to your last question."; return; }
    if (!text) return;
    input.value = "";
    exchange({text: text}, text);
  });

  start(false).catch(function () { addMessage("bot", [{text: FAIL}], null); });
})();
