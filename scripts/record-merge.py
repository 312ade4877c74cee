#!/usr/bin/env python3
"""Records `expected.json` of fixtures of fixtures/merge/ from real Terraform: the
`configuration` of `terraform show -json` of a plan of the fixture's module, which
`tests/merge.rs` compares (as JSON) with `strata merged --format json`.

For each fixture named on the command line this copies the module (with its local child
modules) to a scratch directory, runs `terraform init -backend=false` and `terraform plan
-refresh=false -out=plan` there with the CLI configuration `scripts/record-plan.py` uses
(providers only from the filesystem mirror), and writes the configuration, keys sorted, to
the fixture's `expected.json`. Fixtures that name a provider schema (`provider-schemas`)
are recorded by `scripts/record-schema-fixtures.py` instead: their `expected.json` holds
what Strata makes of parts Terraform's JSON does not show, so it is refused here.

Usage: scripts/record-merge.py FIXTURE_DIR ...
"""

import json
import pathlib
import shutil
import sys
import tempfile

from importlib import import_module


def load_record_plan():
    """scripts/record-plan.py (its CLI configuration, runner and module copy)."""
    folder = str(pathlib.Path(__file__).resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return import_module("record-plan")


def record(fixture):
    plan = load_record_plan()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = pathlib.Path(tmp)
        env = plan.environment(scratch)
        module = scratch / "module"
        plan.copy_configuration(fixture, module)
        for name in ("expected.json", "expected.txt", "README.md"):
            (module / name).unlink(missing_ok=True)
        plan.run(["terraform", "init", "-backend=false", "-input=false"], module, env)
        plan.run(["terraform", "plan", "-refresh=false", "-input=false", "-out=plan"], module, env)
        shown = json.loads(plan.run(["terraform", "show", "-json", "plan"], module, env).stdout)
    configuration = shown.get("configuration", {})
    (fixture / "expected.json").write_text(json.dumps(configuration, indent=2, sort_keys=True) + "\n")
    print(f"recorded {fixture}")


def main():
    if shutil.which("terraform") is None:
        sys.exit("terraform is not on PATH")
    fixtures = [pathlib.Path(a).resolve() for a in sys.argv[1:]]
    if not fixtures:
        sys.exit(__doc__)
    for fixture in fixtures:
        if (fixture / "provider-schemas").exists():
            sys.exit(f"{fixture}: names a provider schema; use scripts/record-schema-fixtures.py")
        record(fixture)


if __name__ == "__main__":
    main()
