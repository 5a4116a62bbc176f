"""The session's exchange with its process (``post2exe.session._exchange``) against stand-in checkers
(shell and awk scripts speaking the batch protocol; no rustc needed): requests far larger than a pipe in
both request forms, a process that stops reading half-way, one that never reads, one out of step, and
the end of an idle process at ``close``."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from veriscale.languages.verus.post2exe import session as sessmod
from veriscale.languages.verus.post2exe.checker import CompiledChecker, _encode_one
from veriscale.languages.verus.post2exe.session import END_REPLY, CheckerSession

# answers "TT" to every line, and the end marker to the end-of-request line "{}"; GNU sed's -u reads no
# further than the line it answers and flushes every answer (awk would wait for a full input block)
ECHO = """#!/bin/sh
exec sed -u -e 's/^{}$/{"bad":"no input object"}/' -e t -e 's/.*/TT/'
"""
READ_A_LITTLE = "#!/bin/sh\nhead -c 1000 > /dev/null\nexit 0\n"
NEVER_READS = "#!/bin/sh\nexec sleep 30\n"
EXTRA_LINE = """#!/bin/sh
exec sed -u -e 's/^{}$/{"bad":"no input object"}/' -e t -e 's/.*/TT\\nTT/'
"""


def _script(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="ascii")
    path.chmod(0o755)  # (the session links it into its sandbox, where another uid may run it)
    return path


def _gnu_sed() -> bool:
    try:
        res = subprocess.run(
            ["sed", "-u", "-e", "p"], input=b"", capture_output=True, check=False, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return res.returncode == 0


needs_sed = pytest.mark.skipif(not _gnu_sed(), reason="no sed with -u (unbuffered) for the stand-in checker")


@needs_sed
def test_requests_larger_than_a_pipe_in_both_forms(tmp_path: Path) -> None:
    s = CheckerSession(_script(tmp_path, "echo.sh", ECHO), 512)
    try:
        # many lines, each answered while later ones are still being written (about 300 KB: the stand-in
        # reads a byte at a time)
        lines = b"".join(b'{"input":{"x":%d},"pad":"%s"}\n' % (k, b"y" * 80) for k in range(3_000))
        assert len(lines) > 4 * (1 << 16)
        got = s.ask(lines, 60.0, {}, expect=3_000)
        assert got == [b"TT"] * 3_000
        # one line of about 300 KB (a batch array): one answer line
        one = b"[" + b",".join(b'{"input":{"x":%d}}' % k for k in range(16_000)) + b"]\n"
        assert len(one) > 4 * (1 << 16)
        assert s.ask(one, 60.0, {}) == [b"TT"]
        assert s.starts == 1  # both exchanges ended in step: the same process
    finally:
        s.close()


def test_a_process_that_stops_reading_gives_no_answer_and_the_next_batch_starts_afresh(
    tmp_path: Path,
) -> None:
    s = CheckerSession(_script(tmp_path, "little.sh", READ_A_LITTLE), 512)
    try:
        t = time.monotonic()
        big = b"".join(b'{"input":{"x":%d}}\n' % k for k in range(100_000))
        assert s.ask(big, 60.0, {}, expect=100_000) == []
        one = b"[" + b",".join(b'{"input":{"x":%d}}' % k for k in range(100_000)) + b"]\n"
        assert s.ask(one, 60.0, {}) == []
        assert time.monotonic() - t < 30  # ended by the broken pipe or the end of output, not the backstop
        assert s.starts == 2
    finally:
        s.close()


def test_a_process_that_never_reads_is_cut_by_the_backstop(tmp_path: Path) -> None:
    s = CheckerSession(_script(tmp_path, "never.sh", NEVER_READS), 512)
    try:
        t = time.monotonic()
        big = b"[" + b",".join(b'{"input":{"x":%d}}' % k for k in range(100_000)) + b"]\n"
        assert s.ask(big, 0.5, {}) == []
        assert time.monotonic() - t < 20
        assert s._proc is None  # never reused: its state is unknown
    finally:
        s.close()


@needs_sed
def test_a_reply_out_of_step_is_not_used(tmp_path: Path) -> None:
    s = CheckerSession(_script(tmp_path, "extra.sh", EXTRA_LINE), 512)
    try:
        assert s.ask(b'{"input":{"x":1}}\n{"input":{"x":2}}\n', 10.0, {}, expect=2) == []
        assert s._proc is None
    finally:
        s.close()


@needs_sed
def test_close_ends_an_idle_process_at_the_end_of_its_input(tmp_path: Path) -> None:
    s = CheckerSession(_script(tmp_path, "echo.sh", ECHO), 512)
    assert s.ask(b'{"input":{"x":1}}\n', 10.0, {}, expect=1) == [b"TT"]
    assert s._proc is not None and s._proc.proc is not None
    proc = s._proc.proc  # (served, or a one-shot sandbox's helper: the same interface)
    t = time.monotonic()
    s.close()
    assert proc.poll() == 0  # the init exited with the script's status: it ended by itself
    assert time.monotonic() - t < sessmod._EOF_GRACE + 5
    assert END_REPLY.startswith(b"{")  # (the marker the stand-ins print)


@needs_sed
def test_a_case_the_encoder_cannot_write_does_not_stop_the_batch(tmp_path: Path) -> None:
    """A circular (or too deeply nested) value ends the batch encoder with RecursionError: the batch is
    then sent a case per line, the refused case as a line the checker reports as undecodable."""
    loop: list[object] = []
    loop.append(loop)
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert "bad input" in _encode_one({"input": {"x": loop}})
    assert "bad input" in _encode_one({"input": {"x": deep}})
    ck = CompiledChecker(None, _script(tmp_path, "echo.sh", ECHO))  # type: ignore[arg-type]
    try:
        got = ck.check([({"x": 1}, 2), ({"x": loop}, 3), ({"x": deep}, 4)])
    finally:
        ck.close()
    assert len(got) == 3
