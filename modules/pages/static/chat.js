// chat.js -- the chat page's one script: the answer appears as it
// grows.  The question form is posted with Accept: text/event-stream;
// the "delta" events are shown as plain text (textContent: nothing the
// model writes becomes markup), and on "done" the page goes to the
// conversation, where the finished answer is rendered safely.  Without
// this script the form posts as usual and the page shows the answer.
const form = document.querySelector("form.chat-ask");

function show(el, text) {
  el.textContent = text;
}

async function ask(ev) {
  ev.preventDefault();
  const turn = document.createElement("section");
  const h = document.createElement("h2");
  const answer = document.createElement("div");
  const button = form.querySelector("button");
  turn.className = "chat-turn";
  answer.className = "chat-answer";
  answer.setAttribute("aria-live", "polite");
  show(h, form.elements.question.value);
  turn.append(h, answer);
  form.before(turn);
  button.disabled = true;
  let res;
  try {
    res = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "text/event-stream" },
      credentials: "same-origin",
    });
  } catch (e) {
    form.submit();
    return;
  }
  if (!res.ok || !res.body) {
    show(answer, "The question was refused (HTTP " + res.status + ").");
    button.disabled = false;
    return;
  }
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  let text = "";
  let next = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let name = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      const d = JSON.parse(data);
      if (name === "delta") {
        text += d.text;
        show(answer, text);
      } else if (name === "done") {
        next = d.url;
      } else if (name === "error") {
        show(answer, text + "\n" + d.error);
      }
    }
  }
  if (next !== null) location.assign(next);
  else button.disabled = false;
}

if (form !== null && window.fetch && window.TextDecoder) {
  form.addEventListener("submit", ask);
}
