#!/usr/bin/env python3
"""A fake OpenAI-compatible chat-completions server for weft's tests.

    tests/fakellm/server.py [--port 8095] [--host 127.0.0.1]
                            [--latency-ms 0] [--pidfile FILE]
                            [--events FILE]

POST /v1/chat/completions answers deterministically: streamed
("stream": true, server-sent events of chat.completion.chunk, then
"data: [DONE]") or as one chat.completion.  When the request asks for
response_format {"type": "json_schema"}, the content is a JSON object
valid against that schema (first enum value, minimum numbers, "fake
<name>" strings, minItems items).  GET /v1/models lists one model;
GET /health answers "ok".

The answer cites what it was given: every line of the messages that
starts with "[n]" inside a <papers> ... </papers> block is a reference,
and the answer says "Paper [n] is titled ..." for the first three.  Like
a careless model, it obeys "ignore previous instructions" (answering
"INJECTED") when that phrase appears outside such a block: the chat
module's tests use this to show paper text never escapes its block.

Failure modes, chosen by a marker in the last user message or by the
header X-Fake-Mode (marker "fake:MODE"):
    429        HTTP 429 with Retry-After: 7
    500        HTTP 500
    slow       each chunk 300 ms after the previous one
    malformed  a broken event in the middle of the stream
    cut        the connection closes in the middle of the stream
    latency=N  N ms before the first byte (also --latency-ms)
With --events FILE each streamed answer appends one line to FILE:
"stream done N" when all N pieces were sent, "stream gone after K of
N" when the client closed the connection first (t_chat.sh shows that
a browser going away stops the upstream request this way).
Python 3 standard library only.
"""

import argparse
import json
import os
import re
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = ("429", "500", "slow", "malformed", "cut")
LATENCY_MS = 0


def last_user(messages):
    for m in reversed(messages):
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            return m["content"]
    return ""


def mode_of(messages, header):
    text = (header or "") + " " + last_user(messages)
    for m in MODES:
        if "fake:" + m in text:
            return m
    return ""


def latency_of(messages, header):
    text = (header or "") + " " + last_user(messages)
    m = re.search(r"fake:latency=(\d+)", text)
    return int(m.group(1)) if m else LATENCY_MS


PAPERS = re.compile(r"<papers>(.*?)</papers>", re.S | re.I)


def answer_text(messages):
    """The deterministic answer to messages (a list of {role, content})."""
    whole = "\n".join(m.get("content", "") for m in messages
                      if isinstance(m.get("content"), str))
    outside = PAPERS.sub("", whole)
    if "ignore previous instructions" in outside.lower():
        return "INJECTED"
    refs = []
    for block in PAPERS.findall(whole):
        for line in block.splitlines():
            m = re.match(r"\s*\[(\d+)\]\s*(.*)", line)
            if m:
                refs.append((m.group(1), m.group(2)))
    if not refs:
        return "These papers do not say."
    parts = ["From the papers given:"]
    for n, rest in refs[:3]:
        words = re.sub(r"[^\w\s-]", "", rest).split()[:6]
        parts.append("Paper [%s] is titled %s." % (n, " ".join(words)))
    return " ".join(parts)


def from_schema(s, name="value"):
    """A deterministic value valid against the JSON schema s."""
    if not isinstance(s, dict):
        return None
    if "const" in s:
        return s["const"]
    if "enum" in s and s["enum"]:
        return s["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in s and s[key]:
            alts = [a for a in s[key] if a.get("type") != "null"]
            return from_schema((alts or s[key])[0], name)
    t = s.get("type", "object")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object":
        props = s.get("properties", {})
        return {k: from_schema(v, k) for k, v in props.items()}
    if t == "array":
        n = max(1, s.get("minItems", 1))
        n = min(n, s.get("maxItems", n))
        return [from_schema(s.get("items", {"type": "string"}), name)
                for _ in range(n)]
    if t == "string":
        v = "fake " + name
        if "minLength" in s and len(v) < s["minLength"]:
            v = v.ljust(s["minLength"], "x")
        if "maxLength" in s:
            v = v[:s["maxLength"]]
        return v
    if t == "integer":
        return int(s.get("minimum", 1))
    if t == "number":
        return s.get("minimum", 0.5)
    if t == "boolean":
        return False
    return None


def chunks_of(text):
    """The answer in pieces of about three words (spaces kept)."""
    words = re.findall(r"\S+\s*", text)
    return ["".join(words[i:i + 3]) for i in range(0, len(words), 3)] or [""]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fakellm/1"

    def log_message(self, fmt, *args):
        if os.environ.get("FAKELLM_LOG"):
            sys.stderr.write("fakellm: " + fmt % args + "\n")

    def send_json(self, status, obj, extra=()):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/health":
            body = b"ok\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [
                {"id": "fake", "object": "model", "owned_by": "weft"}]})
        else:
            self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        if self.path.rstrip("/") != "/v1/chat/completions":
            self.send_json(404, {"error": {"message": "not found"}})
            return
        try:
            n = int(self.headers.get("Content-Length", "0"))
            req = json.loads(self.rfile.read(n))
            messages = req["messages"]
            assert isinstance(messages, list)
        except (ValueError, KeyError, AssertionError, TypeError):
            self.send_json(400, {"error": {"message": "bad request"}})
            return
        hdr = self.headers.get("X-Fake-Mode")
        mode = mode_of(messages, hdr)
        if mode == "429":
            self.send_json(429, {"error": {"message": "rate limited"}},
                           [("Retry-After", "7")])
            return
        if mode == "500":
            self.send_json(500, {"error": {"message": "boom"}})
            return
        model = req.get("model") or "fake"
        fmt = req.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            schema = (fmt.get("json_schema") or {}).get("schema", {})
            text = json.dumps(from_schema(schema), sort_keys=True)
        elif fmt.get("type") == "json_object":
            text = "{}"
        else:
            text = answer_text(messages)
        prompt_tokens = sum(len(str(m.get("content", "")).split())
                            for m in messages)
        pieces = chunks_of(text)
        usage = {"prompt_tokens": prompt_tokens,
                 "completion_tokens": len(pieces),
                 "total_tokens": prompt_tokens + len(pieces)}
        delay = latency_of(messages, hdr)
        if delay:
            time.sleep(delay / 1000.0)
        if not req.get("stream"):
            self.send_json(200, {
                "id": "chatcmpl-fake", "object": "chat.completion",
                "created": 0, "model": model,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant",
                                         "content": text}}],
                "usage": usage})
            return
        self.stream(model, pieces, usage, mode)

    def event(self, obj):
        data = obj if isinstance(obj, str) else json.dumps(obj)
        self.wfile.write(("data: %s\n\n" % data).encode())
        self.wfile.flush()

    def stream(self, model, pieces, usage, mode):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def chunk(delta, finish=None):
            return {"id": "chatcmpl-fake", "object": "chat.completion.chunk",
                    "created": 0, "model": model,
                    "choices": [{"index": 0, "delta": delta,
                                 "finish_reason": finish}]}
        sent = 0
        try:
            self.event(chunk({"role": "assistant"}))
            half = max(1, len(pieces) // 2)
            for i, p in enumerate(pieces):
                if i == half and mode == "malformed":
                    self.event("{\"choices\": [ this is not json")
                if i == half and mode == "cut":
                    # Half an event, then the connection closes.
                    self.wfile.write(b"data: {\"choices\":[{\"delta\":")
                    self.wfile.flush()
                    return
                if mode == "slow":
                    time.sleep(0.3)
                self.event(chunk({"content": p}))
                sent += 1
            self.event(chunk({}, "stop"))
            self.event({"id": "chatcmpl-fake",
                        "object": "chat.completion.chunk", "created": 0,
                        "model": model, "choices": [], "usage": usage})
            self.event("[DONE]")
            note("stream done %d" % len(pieces))
        except (BrokenPipeError, ConnectionResetError):
            # The client went away: stop generating.
            note("stream gone after %d of %d" % (sent, len(pieces)))


EVENTS = None


def note(line):
    """Appends line to the --events file, if any."""
    if not EVENTS:
        return
    os.makedirs(os.path.dirname(os.path.abspath(EVENTS)), exist_ok=True)
    with open(EVENTS, "a") as f:
        f.write(line + "\n")


def main():
    global LATENCY_MS, EVENTS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8095)
    ap.add_argument("--latency-ms", type=int, default=0)
    ap.add_argument("--pidfile")
    ap.add_argument("--events")
    a = ap.parse_args()
    LATENCY_MS = a.latency_ms
    EVENTS = a.events
    srv = ThreadingHTTPServer((a.host, a.port), Handler)
    srv.daemon_threads = True
    if a.pidfile:
        with open(a.pidfile, "w") as f:
            f.write("%d\n" % os.getpid())
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
