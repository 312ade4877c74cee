#!/usr/bin/env bash
# Builds each fuzz target's corpus in fuzz/corpus/<target>/ (not committed) from the
# repository's fixtures/, the small hand-written seeds in fuzz/seeds/, and, when it is
# there, the real-world corpus in ../shared/corpus (outside the repository). Also writes
# fuzz/corpus/eval.dict, every function name for the evaluator target. Idempotent: files
# are named by content.
set -euo pipefail
cd "$(dirname "$0")"
exec python3 - "$@" <<'PY'
import hashlib, json, os, pathlib, random

fuzz = pathlib.Path.cwd()
repo = fuzz.parent
fixtures = repo / "fixtures"
shared = repo.parent / "shared" / "corpus"
corpus = fuzz / "corpus"
# Seeds larger than the fuzzing length limits (fuzz/run.sh) would only be cut.
MAX = {"merge": 4096, "plan": 4096}
rng = random.Random(12)

def files(root, *suffixes):
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and p.name.endswith(suffixes))

def add(target, data):
    if len(data) > MAX.get(target, 2048):
        return
    d = corpus / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)

def committed(target):
    for p in files(fuzz / "seeds" / target, ""):
        add(target, p.read_bytes())

native = files(fixtures, ".tf") + files(shared, ".tf")
json_files = files(fixtures, ".tf.json") + files(shared, ".tf.json")
states = files(fixtures, ".tfstate") + files(shared, ".tfstate")

for p in native:
    add("parse_native", p.read_bytes())
    add("eval", p.read_bytes())
for p in json_files:
    add("parse_json", p.read_bytes())
for p in states:
    add("state", p.read_bytes())

# reparse: a 3-byte edit header (offset, deleted length), the text, NUL, the insertion.
pieces = [b"}", b"{", b"\"", b"\n", b"#", b" = ", b"x", b"<<EOT\n", b"/*", b"[", b"]", b"${", b""]
for p in native:
    text = p.read_bytes()
    for _ in range(2):
        at = rng.randrange(len(text) + 1) & 0xFFFF
        head = bytes([at & 0xFF, at >> 8, rng.randrange(9)])
        add("reparse", head + text + b"\0" + rng.choice(pieces))

# merge and plan: a module's files in the slots fuzz/src/lib.rs names them by.
def slots(module_dir):
    slot = {"main.tf": None, "override.tf": None, "b.tf.json": None,
            "b_override.tf.json": None, "c.tf": None, "c_override.tf": None}
    for p in sorted(module_dir.iterdir()):
        if not p.is_file():
            continue
        n = p.name
        json_syntax = n.endswith(".tf.json")
        if not (json_syntax or n.endswith(".tf")):
            continue
        override = n.removesuffix(".json").removesuffix(".tf").endswith("override")
        names = {(False, False): ["main.tf", "c.tf"], (False, True): ["override.tf", "c_override.tf"],
                 (True, False): ["b.tf.json"], (True, True): ["b_override.tf.json"]}[(json_syntax, override)]
        free = [s for s in names if slot[s] is None]
        if free:
            slot[free[0]] = p.read_bytes()
        else:
            slot[names[-1]] += b"\n" + p.read_bytes()
    parts = [v or b"" for v in slot.values()]
    while len(parts) > 1 and not parts[-1]:
        parts.pop()
    return b"\0".join(parts)

def module_dirs(root):
    if not root.is_dir():
        return []
    return sorted({p.parent for p in root.rglob("*.tf")} | {p.parent for p in root.rglob("*.tf.json")})

for d in module_dirs(fixtures) + module_dirs(shared):
    add("merge", slots(d))
for d in module_dirs(fixtures / "plan") + module_dirs(fixtures / "check"):
    state = d / "terraform.tfstate"
    child = d / "child"
    add("plan", slots(d) + b"\x01" + (state.read_bytes() if state.is_file() else b"")
        + b"\x01" + (slots(child) if child.is_dir() else b""))

# eval: one call of every function with arguments of each kind, and the dictionary.
functions = json.loads((repo / "server/src/schema/functions.json").read_text())["function_signatures"]
names = sorted({n.removeprefix("core::") for n in functions})
args = ["var.s", "var.n", "var.l", "var.m", "\"a.txt\"", "\".\", \"**\"", "var.s, var.n",
        "[1, \"a\"], 2", "{a = 1}, {b = var.u}"]
for n in names:
    add("eval", ("\n".join(f"x{i} = {n}({a})" for i, a in enumerate(args)) + "\n").encode())
def entry(word):
    # libFuzzer's dictionary syntax: printable ASCII, with \\, \" and \xNN escapes.
    return '"' + "".join(c if " " <= c <= "~" and c not in '\\"' else f"\\x{ord(c):02x}" for c in word) + '"\n'
with open(corpus / "eval.dict", "w") as out:
    for n in names:
        out.write(entry(n + "("))
    for word in ["var.", "local.", "for ", " in ", "if ", "%{", "${", "<<EOT\n", "...", "=>", "?", "null", "true"]:
        out.write(entry(word))

for target in ["parse_native", "parse_json", "reparse", "merge", "eval", "state", "plan", "framing"]:
    committed(target)
    n = len(list((corpus / target).iterdir())) if (corpus / target).is_dir() else 0
    print(f"{target}: {n} seeds")
PY
