#!/usr/bin/env python3
"""Compares Strata's native-syntax errors with real Terraform's on mangled files.

Takes `.tf` files from ../shared/corpus and fixtures/, makes mangled copies of them (a
character deleted, one of `{}[]()"=,.#/*<$%` or a newline inserted, a line duplicated or
dropped; all chosen by a seeded generator, so a run is repeatable), and for each copy,
alone in a scratch module, runs `terraform validate -json` (no `init`: HCL's parse errors
come before anything needs a provider) and `strata check --format json`. Only syntax
diagnostics are compared (the summaries HCL's native parser and scanner report): the
decoder's and the validate walk's are left out, since a module that was not initialised
reports missing providers and modules. A copy differs when the sets of (severity, summary,
detail, range) differ.

Usage: scripts/syntax-differential.py [--seed N] [--files N] [--mutations N] [--jobs N]
                                      [--strata PATH] [--keep DIR] [--show N]

Prints one block per differing copy (the mutation, then what only Terraform and only
Strata said), and a last line `compared N, differ M`. With --keep, each differing copy is
written to DIR/<n>/main.tf for reproduction.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
INSERTS = list('{}[]()"=,.#/*<$%') + ["\n"]

# The summaries of HCL's native-syntax scanner and parser (hclsyntax), as Terraform prints
# them; everything else (decoding, evaluation, providers) is not compared.
SYNTAX_SUMMARIES = {
    "Argument definition required",
    "Argument or block definition required",
    "Attribute name required",
    "Attribute redefined",
    "Extra characters after expression",
    "Extra characters after interpolation expression",
    "Index value required",
    "Invalid 'for' directive",
    "Invalid 'for' expression",
    "Invalid argument name",
    "Invalid attribute name",
    "Invalid block definition",
    "Invalid character",
    "Invalid character encoding",
    "Invalid escape sequence",
    "Invalid expression",
    "Invalid legacy index syntax",
    "Invalid multi-line string",
    "Invalid number literal",
    "Invalid single-argument block definition",
    "Invalid string literal",
    "Invalid template control keyword",
    "Invalid template directive",
    "Missing argument separator",
    "Missing attribute separator",
    "Missing attribute value",
    "Missing close bracket on index",
    "Missing close bracket on splat index",
    "Missing closing parenthesis",
    "Missing expression",
    "Missing false expression in conditional",
    "Missing function name",
    "Missing item separator",
    "Missing key/value separator",
    "Missing newline after argument",
    "Missing newline after block definition",
    "Missing open parenthesis",
    "Nested splat expression not allowed",
    "Unbalanced parentheses",
    "Unclosed configuration block",
    "Unclosed configuration body",
    "Unclosed index brackets",
    "Unclosed template interpolation sequence",
    "Unexpected comma after argument",
    "Unexpected else directive",
    "Unexpected end of template",
    "Unsupported operator",
    "Unterminated comment",
    "Unterminated function call",
    "Unterminated object constructor expression",
    "Unterminated string literal",
    "Unterminated template string",
    "Unterminated tuple constructor expression",
    "Variable name required",
    # Strata's own wording where it cannot say what HCL says.
    "Invalid syntax",
    "Configuration nested too deeply",
}


def source_files(limit, rng):
    """`limit` native files from the corpus and the fixtures, drawn by `rng`."""
    files = sorted(CORPUS.rglob("*.tf")) + sorted((ROOT / "fixtures").rglob("*.tf"))
    files = [f for f in files if f.is_file() and f.stat().st_size < 64 * 1024]
    rng.shuffle(files)
    return files[:limit]


def mangle(text, rng):
    """One mangled copy of `text` and a description of what was done."""
    lines = text.split("\n")
    kind = rng.choice(["delete", "insert", "insert", "duplicate", "drop"])
    if kind in ("delete", "insert") and text:
        at = rng.randrange(len(text))
        if kind == "delete":
            return text[:at] + text[at + 1 :], f"delete {text[at]!r} at byte {at}"
        c = rng.choice(INSERTS)
        return text[:at] + c + text[at:], f"insert {c!r} at byte {at}"
    n = rng.randrange(len(lines))
    if kind == "duplicate":
        return "\n".join(lines[: n + 1] + lines[n:]), f"duplicate line {n + 1}"
    return "\n".join(lines[:n] + lines[n + 1 :]), f"drop line {n + 1}"


def key(d):
    r = d.get("range") or {}
    start, end = r.get("start", {}), r.get("end", {})
    return (
        d.get("severity"),
        d.get("summary"),
        d.get("detail", ""),
        (start.get("line"), start.get("column"), start.get("byte")),
        (end.get("line"), end.get("column"), end.get("byte")),
    )


def syntax_keys(output):
    try:
        doc = json.loads(output)
    except json.JSONDecodeError:
        return None
    return {key(d) for d in doc.get("diagnostics", []) if is_syntax(d)}


def is_syntax(d):
    """Whether `d` is one of HCL's syntax errors (Terraform's loader says "Invalid
    expression" too, of expressions that parsed: a static list is required...)."""
    summary = d.get("summary", "")
    if summary == "Invalid expression":
        return d.get("detail", "").startswith("Expected the start of an expression")
    # `Unexpected endfor directive` and its kin name the directive found.
    if summary.startswith("Unexpected ") and summary.endswith(" directive"):
        return True
    return summary in SYNTAX_SUMMARIES


def compare(case, strata, cli_config):
    """What Terraform and Strata say about one mangled text: (terraform, strata) keys."""
    text = case["text"]
    with tempfile.TemporaryDirectory(prefix="syntax-diff-") as d:
        (pathlib.Path(d) / "main.tf").write_text(text)
        env = dict(os.environ, TF_CLI_CONFIG_FILE=str(cli_config), TF_IN_AUTOMATION="1")
        tf = output(["terraform", "validate", "-json", "-no-color"], d, env)
        st = output([strata, "check", "--format", "json", d], d, env)
    return syntax_keys(tf), syntax_keys(st)


def output(command, cwd, env):
    """What `command` prints on standard output."""
    run = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    return run.stdout


def describe(k):
    sev, summary, detail, start, end = k
    return f"  {start[0]}:{start[1]}-{end[0]}:{end[1]} {sev} {summary}: {detail}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--mutations", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--strata", default=None)
    ap.add_argument("--keep", default=None)
    ap.add_argument("--show", type=int, default=1000)
    args = ap.parse_args()
    strata = args.strata or shutil.which("strata")
    if not strata:
        target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
        strata = str(pathlib.Path(target) / "debug" / "strata")
    rng = random.Random(args.seed)
    cases = []
    for f in source_files(args.files, rng):
        text = f.read_text(errors="replace")
        for _ in range(args.mutations):
            mangled, what = mangle(text, rng)
            cases.append({"file": f, "what": what, "text": mangled})
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="syntax-diff-config-"))
    cli_config = scratch / "terraformrc"
    cli_config.write_text("")
    differ = 0
    compared = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = pool.map(lambda c: compare(c, strata, cli_config), cases)
            for n, (case, (tf, st)) in enumerate(zip(cases, results)):
                if tf is None or st is None:
                    print(f"#{n} {case['file']}: no JSON from one side", file=sys.stderr)
                    continue
                compared += 1
                if tf == st:
                    continue
                differ += 1
                if differ <= args.show:
                    rel = os.path.relpath(case["file"], ROOT)
                    print(f"#{n} {rel}: {case['what']}")
                    for k in sorted(tf - st, key=str):
                        print("  terraform" + describe(k)[1:])
                    for k in sorted(st - tf, key=str):
                        print("  strata   " + describe(k)[1:])
                if args.keep:
                    out = pathlib.Path(args.keep) / str(n)
                    out.mkdir(parents=True, exist_ok=True)
                    (out / "main.tf").write_text(case["text"])
                sys.stdout.flush()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"compared {compared}, differ {differ}")


if __name__ == "__main__":
    main()
