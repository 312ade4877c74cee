#!/usr/bin/env python3
"""Records what real Terraform plans for each fixture of fixtures/plan-recorded/.

A fixture folder holds `prior/` (a configuration applied first) and, at its top level, the
configuration that is planned against the state `prior/` left. For each fixture (or the
folders named on the command line) this:

1. copies `prior/` to a scratch directory, runs `terraform init` and
   `terraform apply -auto-approve` there, and copies the resulting state into the fixture
   as `terraform.tfstate` (what `strata plan` reads by default);
2. copies the fixture's configuration (with its child modules) and that state to a second scratch
   directory, runs `terraform init`, `terraform plan -json -out=plan` (its diagnostics),
   `terraform show -json plan` and `terraform show -no-color plan` (a configuration
   whose loading fails fails `init` too: the plan then records the loader's errors);
3. writes `terraform-plan.json`, trimmed to what `tests/plan_recorded.rs` compares (each
   resource change's address, previous_address, action_reason, actions, before, after,
   after_unknown, before_sensitive and after_sensitive; `output_changes` as they are; the
   errors and warnings by summary and detail), `terraform-plan.txt` (the text of `terraform show`, or of the failed plan)
   and, when the plan succeeded, `terraform-configuration.json` (the `configuration` of
   `terraform show -json`, which `strata merged --format json` prints).

A fixture may hold `args`, arguments added to `terraform plan` (and to `strata plan` by the
test), one a line, written `--var=NAME=VALUE` (both accept it), and `env`, environment
variables (`TF_VAR_NAME=VALUE`) set for the plan, one a line.

Providers come only from the filesystem mirror that ../shared/tools/tf-plugin-mirror prints
(or TF_PLUGIN_MIRROR); fixtures using only `terraform_data` need none. No network.

Usage: scripts/record-plan.py [FIXTURE_DIR ...]
"""

import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "plan-recorded"


def load_record_validate():
    """scripts/record-validate.py, whose CLI configuration (mirror only) this reuses."""
    path = pathlib.Path(__file__).resolve().parent / "record-validate.py"
    spec = importlib.util.spec_from_file_location("record_validate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def environment(scratch):
    """Terraform's environment: a CLI configuration installing from the mirror only."""
    rc = load_record_validate().cli_config(scratch)
    return dict(
        os.environ,
        TF_CLI_CONFIG_FILE=str(rc),
        TF_IN_AUTOMATION="1",
        CHECKPOINT_DISABLE="1",
    )


def run(args, cwd, env, allow_failure=False):
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0 and not allow_failure:
        sys.exit(f"{' '.join(args)} failed in {cwd}:\n{out.stdout}{out.stderr}")
    return out


def copy_configuration(source, target):
    """The module in `source` (with its local child modules in subfolders) into `target`,
    without `prior/`, recordings, state or Terraform's working files."""
    shutil.copytree(
        source,
        target,
        ignore=shutil.ignore_patterns(
            "prior", ".terraform*", "terraform.tfstate*", "terraform-plan.*", "terraform-configuration.json", "args", "env"
        ),
    )


def apply_prior(fixture, scratch, env):
    """Applies `prior/` and returns the state it leaves."""
    prior = scratch / "prior"
    copy_configuration(fixture / "prior", prior)
    run(["terraform", "init", "-input=false"], prior, env)
    run(["terraform", "apply", "-auto-approve", "-input=false"], prior, env)
    return (prior / "terraform.tfstate").read_text()


def diagnostics(plan_output):
    """The errors and warnings of `terraform plan -json`, by summary and detail."""
    found = {"errors": [], "warnings": []}
    for line in plan_output.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        if message.get("type") != "diagnostic":
            continue
        d = message["diagnostic"]
        key = "errors" if d["severity"] == "error" else "warnings"
        found[key].append({"summary": d["summary"], "detail": d.get("detail", "")})
    return found


def lines(path):
    """The non-empty lines of a fixture's `args` or `env` file (none when it is absent)."""
    if not path.is_file():
        return []
    return [line for line in path.read_text().splitlines() if line]


def trimmed(change):
    """One resource change, as `tests/plan_recorded.rs` compares it."""
    kept = {"address": change["address"]}
    for key in ("previous_address", "action_reason"):
        if key in change:
            kept[key] = change[key]
    for key in (
        "actions",
        "before",
        "after",
        "after_unknown",
        "before_sensitive",
        "after_sensitive",
    ):
        kept[key] = change["change"][key]
    return kept


def record(fixture):
    with tempfile.TemporaryDirectory() as tmp:
        scratch = pathlib.Path(tmp)
        env = environment(scratch)
        state = apply_prior(fixture, scratch, env)
        (fixture / "terraform.tfstate").write_text(state)
        planned = scratch / "planned"
        copy_configuration(fixture, planned)
        (planned / "terraform.tfstate").write_text(state)
        # A configuration Terraform's loader rejects fails `init` as well; the plan then
        # reports the loader's errors (once each, where `init` repeats them).
        run(["terraform", "init", "-input=false"], planned, env, allow_failure=True)
        args = lines(fixture / "args")
        env = dict(env, **dict(v.split("=", 1) for v in lines(fixture / "env")))
        plan = run(
            ["terraform", "plan", "-json", "-input=false", "-out=plan", *args],
            planned,
            env,
            allow_failure=True,
        )
        recording = diagnostics(plan.stdout)
        if plan.returncode == 0:
            shown = json.loads(run(["terraform", "show", "-json", "plan"], planned, env).stdout)
            recording["resource_changes"] = [
                trimmed(c) for c in shown.get("resource_changes", [])
            ]
            recording["output_changes"] = shown.get("output_changes", {})
            text = run(["terraform", "show", "-no-color", "plan"], planned, env).stdout
            configuration = shown.get("configuration", {})
        else:
            recording["resource_changes"] = []
            configuration = None
            text = run(
                ["terraform", "plan", "-no-color", "-input=false", *args],
                planned,
                env,
                allow_failure=True,
            )
            text = text.stdout + text.stderr
    (fixture / "terraform-plan.json").write_text(
        json.dumps(recording, indent=2, sort_keys=True) + "\n"
    )
    (fixture / "terraform-plan.txt").write_text(text)
    if configuration is not None:
        (fixture / "terraform-configuration.json").write_text(
            json.dumps(configuration, indent=2, sort_keys=True) + "\n"
        )
    shown_path = fixture.relative_to(ROOT) if fixture.is_relative_to(ROOT) else fixture
    print(f"recorded {shown_path}")


def main():
    if shutil.which("terraform") is None:
        sys.exit("terraform is not on PATH")
    named = [pathlib.Path(a).resolve() for a in sys.argv[1:]]
    fixtures = named or sorted(p for p in FIXTURES.iterdir() if (p / "prior").is_dir())
    for fixture in fixtures:
        if not (fixture / "prior").is_dir():
            sys.exit(f"{fixture}: no prior/ configuration")
        record(fixture)


if __name__ == "__main__":
    main()
