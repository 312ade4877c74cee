#!/usr/bin/env python3
"""Records what Terraform makes of each expression in fixtures/functions/expressions.txt.

Writes fixtures/functions/results.json: one row per expression, with either the value
(as `jsonencode` prints it, from `terraform console`), "UNKNOWN" when the value is unknown
at plan time, or the error's summary and detail (from `terraform plan -json`, which does
not wrap the detail as the console does).

`local.NAME` is the value of NAME in fixtures/functions/locals.json. `var.unknown` in an expression stands for a value unknown at plan time: those rows are
planned with it replaced by the output of a `terraform_data` resource not yet created.

Usage: python3 scripts/record-function-results.py [fixtures/functions [NAME]]
With NAME, reads NAME-expressions.txt and writes NAME-results.json instead (one table per
family of functions, e.g. `yaml`).
Needs `terraform` on PATH; no provider is downloaded (`terraform_data` is built in).
"""

import json
import os
import subprocess
import sys
import tempfile

UNKNOWN = "terraform_data.u.output"


LOCALS = {}


def hcl_string(s):
    """`s` as an HCL quoted string, with no interpolation."""
    return json.dumps(s).replace("${", "$${").replace("%{", "%%{")


def module(expr):
    locals_ = "".join(
        f"  {k} = jsondecode({hcl_string(json.dumps(v))})\n" for k, v in LOCALS.items()
    )
    return (
        'resource "terraform_data" "u" {\n  input = "x"\n}\n'
        f"locals {{\n{locals_}}}\n"
        f'output "r" {{\n  value = {expr.replace("var.unknown", UNKNOWN)}\n}}\n'
    )


def run(args, cwd, stdin=None):
    env = dict(os.environ, TF_CLI_CONFIG_FILE=os.path.join(cwd, "cli.tfrc"), NO_COLOR="1")
    return subprocess.run(
        ["terraform", *args], cwd=cwd, input=stdin, capture_output=True, encoding="utf-8", env=env
    )


def planned(expr, cwd):
    """The value or error of `expr` as `terraform plan` sees it."""
    with open(os.path.join(cwd, "main.tf"), "w") as f:
        f.write(module(expr))
    plan = run(["plan", "-json", "-input=false", "-out=p.tfplan"], cwd)
    for line in plan.stdout.splitlines():
        msg = json.loads(line)
        d = msg.get("diagnostic")
        if msg.get("type") == "diagnostic" and d and d["severity"] == "error":
            return {"error": {"summary": d["summary"], "detail": d["detail"]}}
    show = run(["show", "-json", "p.tfplan"], cwd)
    change = json.loads(show.stdout)["output_changes"]["r"]
    if change.get("after_unknown") is True:
        return {"unknown": True}
    return {"value": change["after"]}


def consoled(expr, cwd):
    """The value of `expr` as `terraform console` prints it, or None when it fails."""
    out = run(["console"], cwd, stdin=f"jsonencode({expr})\n")
    if out.returncode != 0:
        return None
    try:
        return {"value": json.loads(json.loads(out.stdout.strip()))}
    except json.JSONDecodeError:
        # Not JSON text: e.g. "(known after apply)" for an unknown value.
        return None


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "fixtures/functions"
    prefix = f"{sys.argv[2]}-" if len(sys.argv) > 2 else ""
    with open(os.path.join(folder, "locals.json")) as f:
        LOCALS.update(json.load(f))
    with open(os.path.join(folder, f"{prefix}expressions.txt")) as f:
        exprs = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    rows = []
    with tempfile.TemporaryDirectory() as cwd:
        with open(os.path.join(cwd, "cli.tfrc"), "w") as f:
            f.write("provider_installation {\n  direct {}\n}\n")
        with open(os.path.join(cwd, "main.tf"), "w") as f:
            f.write(module("null"))
        run(["init", "-input=false"], cwd)
        for expr in exprs:
            result = None if "var.unknown" in expr else consoled(expr, cwd)
            if result is None:
                result = planned(expr, cwd)
            rows.append({"expr": expr, **result})
            print(expr, "=>", json.dumps(result), file=sys.stderr)
    with open(os.path.join(folder, f"{prefix}results.json"), "w") as f:
        json.dump(rows, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
