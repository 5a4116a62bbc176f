"""A scripted OpenAI-compatible chat-completions server for the model-layer tests.

Bound to 127.0.0.1 on an ephemeral port. Each POST to ``/v1/chat/completions``
takes the next scripted action (or, when the script is empty, answers with the
``responder``). Every request is recorded with its headers and JSON body so the
tests can count retries and look for the key, and with the number of hanging
requests the server was holding when it arrived (so a test can tell that a client
gave up on a request by its own timeout, without measuring time). Hanging handlers
wait on an event that ``stop()`` sets, so the server always shuts down promptly.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_REQUESTS = 400  # a runaway retry loop gets 500s instead of spinning forever


@dataclass
class Action:
    kind: str  # "ok" | "status" | "raw" | "hang" | "echo_auth"
    content: str = ""
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    finish_reason: str = "stop"
    usage: tuple[int, int] = (10, 5)
    content_length: int | None = None


def ok(content: str, finish_reason: str = "stop", usage: tuple[int, int] = (10, 5)) -> Action:
    return Action("ok", content=content, finish_reason=finish_reason, usage=usage)


def status(code: int, message: str = "error", headers: dict[str, str] | None = None) -> Action:
    body = json.dumps({"error": {"message": message, "type": "test", "code": code}}).encode()
    return Action("status", status=code, body=body, headers=headers or {})


def raw(body: bytes, code: int = 200, content_length: int | None = None) -> Action:
    return Action("raw", status=code, body=body, content_length=content_length)


def hang(seconds: float) -> Action:
    return Action("hang", seconds=seconds)


def echo_auth(code: int = 401) -> Action:
    return Action("echo_auth", status=code)


def completion_body(
    content: str, model: str, finish_reason: str = "stop", usage: tuple[int, int] = (10, 5)
) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}
        ],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
    }


def default_responder(body: dict[str, Any]) -> str:
    last = body["messages"][-1]["content"]
    return f"echo: {last[:60]}"


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: deque[Action] = deque()
        self.requests: list[dict[str, Any]] = []
        self.responder: Callable[[dict[str, Any]], str] = default_responder
        self.release = threading.Event()
        self.hanging = 0  # requests held by a "hang" action right now
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _send(
                self, code: int, body: bytes, headers: dict[str, str] | None = None, length: int | None = None
            ) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body) if length is None else length))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_GET(self) -> None:
                self._send(200, json.dumps({"object": "list", "data": []}).encode())

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                raw_body = self.rfile.read(n)
                try:
                    body = json.loads(raw_body)
                except ValueError:
                    body = {}
                with fake._lock:
                    fake.requests.append(
                        {
                            "path": self.path,
                            "headers": dict(self.headers.items()),
                            "body": body,
                            "raw": raw_body.decode("utf-8", "replace"),
                            "hanging": fake.hanging,
                        }
                    )
                    count = len(fake.requests)
                    action = fake.script.popleft() if fake.script else None
                    if action is not None and action.kind == "hang":
                        fake.hanging += 1  # counted before the lock is released: no race with a retry
                try:
                    self._answer(action, body, count)
                finally:
                    if action is not None and action.kind == "hang":
                        with fake._lock:
                            fake.hanging -= 1

            def _answer(self, action: Action | None, body: dict[str, Any], count: int) -> None:
                if count > MAX_REQUESTS:
                    self._send(500, b'{"error": {"message": "too many requests in one test"}}')
                    return
                if not self.path.endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "no such route"}}')
                    return
                model = str(body.get("model", ""))
                if action is None:
                    action = ok(fake.responder(body))
                if action.kind == "ok":
                    payload = completion_body(action.content, model, action.finish_reason, action.usage)
                    self._send(200, json.dumps(payload).encode())
                elif action.kind in ("status", "raw"):
                    self._send(action.status, action.body, action.headers, action.content_length)
                elif action.kind == "hang":
                    fake.release.wait(action.seconds)
                    self._send(200, json.dumps(completion_body("too late", model)).encode())
                elif action.kind == "echo_auth":
                    msg = f"invalid key {self.headers.get('Authorization')}"
                    self._send(action.status, json.dumps({"error": {"message": msg}}).encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def push(self, *actions: Action) -> None:
        with self._lock:
            self.script.extend(actions)

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def start(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def cache_writer(path: str, writer: int, n: int) -> None:
    """Child-process body for the concurrent-writers test (kept here: this module imports fast)."""
    from veriscale.llm.cache import ResponseCache
    from veriscale.llm.records import ChatRequest, TokenUsage

    def req(i: int, w: int) -> ChatRequest:
        return ChatRequest(stage="s", model="m", messages=({"role": "user", "content": f"q{i}"},), sample=w)

    cache = ResponseCache(path)
    for i in range(n):
        cache.put(req(i, writer), f"w{writer}-{i}", "stop", TokenUsage(1, 2))
        cache.put(req(i, 99), f"shared-by-{writer}", "stop", TokenUsage())  # a contended key
    cache.close()
