"""A scripted "model" for VeriContest's model-driven suite stages (semantic mutants, input generators).

Used as the ``responder`` of ``llm_fake_server.FakeOpenAI``: it reads which
problem (by the description's title) and which question (semantic mutants, or a
random / adversarial generator) a request is about and answers with a fixed
text. The answers exercise every path:

* lc7 (reverse an ``i32``), semantic mutants: v1 forgets the sign (wrong on
  negative inputs only: kept), v2 only renames a variable (passes everything:
  dropped), v3 returns ``i32::MAX`` (fails everything: dropped), v4 calls a
  function that does not exist (does not compile), v5 drops the overflow check
  (wrapping arithmetic: wrong on inputs whose reverse overflows);
* lc509 (Fibonacci, ``0 <= n <= 30``), semantic mutants: prose, no code;
* lc7 generators: a good random one; an adversarial one that never ends;
* lc509 generators: a random one whose sizes go past the precondition and that
  also prints garbage lines; an adversarial one that does not compile.
"""

from __future__ import annotations

import json
from typing import Any

LC7_REFERENCE_BODY = """\
        if x == i32::MIN {
            return 0;
        }
        let neg = x < 0;
        let mut cur: i32 = if neg { -x } else { x };
        let mut res: i32 = 0;
        while cur != 0 {
            match res.checked_mul(10) {
                None => {
                    return 0;
                },
                Some(tmp) => match tmp.checked_add(cur % 10) {
                    None => {
                        return 0;
                    },
                    Some(fine) => {
                        res = fine;
                    },
                },
            }
            cur = cur / 10;
        }
        if neg { -res } else { res }
"""


def _lc7(body: str) -> str:
    return "impl Solution {\n    pub fn reverse(x: i32) -> i32 {\n" + body + "    }\n}"


LC7_VARIANTS = {
    "v1": ("The sign of a negative input is lost.", _lc7(LC7_REFERENCE_BODY.replace("{ -res }", "{ res }"))),
    "v2": ("Renamed the accumulator (no bug).", _lc7(LC7_REFERENCE_BODY.replace("res", "acc"))),
    "v3": ("Always the largest value.", _lc7("        let _ = x;\n        i32::MAX\n")),
    "v4": ("Calls a helper that is not there.", _lc7("        reverse_digits(x)\n")),
    "v5": (
        "Overflow is not detected.",
        _lc7(
            """\
        if x == i32::MIN {
            return 0;
        }
        let neg = x < 0;
        let mut cur: i32 = if neg { -x } else { x };
        let mut res: i32 = 0;
        while cur != 0 {
            res = res.wrapping_mul(10).wrapping_add(cur % 10);
            cur = cur / 10;
        }
        if neg { -res } else { res }
"""
        ),
    ),
}

_XORSHIFT = """\
fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn args() -> Vec<i64> {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    line.split_whitespace().map(|t| t.parse::<i64>().unwrap()).collect()
}
"""

LC7_RANDOM = (
    _XORSHIFT
    + """
fn main() {
    let a = args();
    let mut s: u64 = (a[0] as u64).wrapping_mul(2654435761) | 1;
    for _ in 0..a[1] {
        let v = next(&mut s) as u32 as i32;
        println!("{{\\"x\\": {}}}", v);
    }
}
"""
)
LC7_LOOP = "fn main() {\n    let mut k: u64 = 0;\n    loop {\n        k = k.wrapping_add(1);\n    }\n}\n"
LC509_RANDOM = (
    _XORSHIFT
    + """
fn main() {
    let a = args();
    let mut s: u64 = (a[0] as u64).wrapping_mul(2654435761) | 1;
    println!("hello");
    println!("{{\\"m\\": 1}}");
    for _ in 0..20 {
        let v = (next(&mut s) % (a[1] as u64 + 1)) as i64;
        println!("{{\\"n\\": {}}}", v);
    }
}
"""
)
LC509_BROKEN = 'fn main() {\n    let n: i32 = "five";\n    println!("{}", n);\n}\n'


def _rust(code: str) -> str:
    return "```rust\n" + code.strip("\n") + "\n```"


def semantic_answer(problem: str) -> str:
    if problem == "lc509":
        return "I am sorry, I cannot write buggy code for this problem."
    parts = ["Here are the variants.\n"]
    for k, (vid, (desc, code)) in enumerate(LC7_VARIANTS.items(), 1):
        assert vid == f"v{k}"
        parts.append(f"### Variant {k}: {desc}\n\n{_rust(code)}\n")
    return "\n".join(parts)


def generator_answer(problem: str, kind: str) -> str:
    if problem == "lc7":
        program, args = (LC7_RANDOM, ["1 30", "2 60"]) if kind == "random" else (LC7_LOOP, ["1"])
    else:
        program, args = (LC509_RANDOM, ["1 10", "2 40"]) if kind == "random" else (LC509_BROKEN, ["1"])
    return f"The generator:\n\n{_rust(program)}\n\nRun it with:\n\n```json\n{json.dumps(args)}\n```\n"


def which(messages: list[dict[str, str]]) -> tuple[str, str]:
    """(problem id, question) of a request: question is "semantic", "random" or "adversarial"."""
    user = messages[-1]["content"]
    problem = "lc7" if "# Reverse Integer" in user else "lc509" if "# Fibonacci Number" in user else "?"
    if "buggy versions" in user:
        return problem, "semantic"
    return problem, "random" if "of the random kind" in user else "adversarial"


def responder(body: dict[str, Any]) -> str:
    problem, question = which(body["messages"])
    if question == "semantic":
        return semantic_answer(problem)
    return generator_answer(problem, question)
