#!/usr/bin/env python3
"""Records what real Terraform makes of each fixture of fixtures/merge/ and
fixtures/plan/ that names a provider schema file (a `provider-schemas` file).

For each such fixture (or the folders named on the command line) this copies the module's
`.tf` files (and a plan fixture's `terraform.tfstate`) to a scratch directory, runs
`terraform init -backend=false` offline (providers come only from the filesystem mirror
that ../shared/tools/tf-plugin-mirror prints, or TF_PLUGIN_MIRROR), `terraform plan
-refresh=false -out` (the fixture's own provider block carries fake credentials and skip
flags, so no network is needed), and `terraform show -json` of that plan. It writes to the
fixture's `terraform.json` (and, for a plan fixture whose name ends in `-text`, the actions
part of `terraform show` of the plan to `terraform.txt`; a fixture whose `provider-schemas`
names `schemas.json` gets the full schema trimmed to its types there): for a merge fixture the resources of
`configuration.root_module` (addresses and expressions), which `tests/merge.rs` compares
with `strata merged --format json`, and the expressions of configured providers to
`terraform-providers.json` (what `expected.txt` shows, compared by reading); for a plan fixture the `resource_changes` (address,
actions, after, after_unknown), which `tests/plan.rs` compares with `strata plan`.

Usage: scripts/record-schema-fixtures.py [FIXTURE_DIR ...]
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = [ROOT / "fixtures" / "merge", ROOT / "fixtures" / "plan"]


def mirror_dir():
    """The filesystem mirror holding hashicorp/aws, or None."""
    if os.environ.get("TF_PLUGIN_MIRROR"):
        return os.environ["TF_PLUGIN_MIRROR"]
    tool = ROOT.parent / "shared" / "tools" / "tf-plugin-mirror"
    if not tool.exists():
        return None
    out = subprocess.run([str(tool)], capture_output=True, text=True)
    return out.stdout.strip() or None


def run(args, cwd, env):
    out = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(args)} failed in {cwd}:\n{out.stdout}{out.stderr}")
    return out.stdout


def record(fixture, mirror):
    with tempfile.TemporaryDirectory() as scratch:
        rc = pathlib.Path(scratch) / "terraformrc"
        rc.write_text(
            'provider_installation {\n  filesystem_mirror {\n'
            f'    path = "{mirror}"\n  }}\n}}\n'
        )
        module = pathlib.Path(scratch) / "module"
        module.mkdir()
        for f in fixture.iterdir():
            if f.name.endswith((".tf", ".tf.json")) or f.name == "terraform.tfstate":
                shutil.copy(f, module / f.name)
        env = dict(os.environ, TF_CLI_CONFIG_FILE=str(rc), TF_IN_AUTOMATION="1")
        run(["terraform", "init", "-backend=false", "-input=false"], module, env)
        run(["terraform", "plan", "-refresh=false", "-input=false", "-out=plan"], module, env)
        shown = json.loads(run(["terraform", "show", "-json", "plan"], module, env))
        text = run(["terraform", "show", "-no-color", "plan"], module, env)
        if (fixture / "provider-schemas").read_text().strip() == "schemas.json":
            # The fixture's own schema file: the full schema trimmed to its types.
            full = pathlib.Path(scratch) / "full.json"
            full.write_text(run(["terraform", "providers", "schema", "-json"], module, env))
            trim = ROOT / "scripts" / "trim-provider-schema.py"
            subprocess.run(
                [sys.executable, trim, full, fixture / "schemas.json", module], check=True
            )
    if fixture.parent.name == "plan":
        kept = [
            {
                "address": c["address"],
                "actions": c["change"]["actions"],
                "after": c["change"]["after"],
                "after_unknown": c["change"]["after_unknown"],
            }
            for c in shown.get("resource_changes", [])
        ]
    else:
        resources = shown["configuration"]["root_module"].get("resources", [])
        kept = [
            {"address": r["address"], "expressions": r.get("expressions", {})} for r in resources
        ]
    (fixture / "terraform.json").write_text(json.dumps(kept, indent=2, sort_keys=True) + "\n")
    if fixture.name.endswith("-text"):
        # The actions part of the text, which tests/plan.rs compares with Strata's.
        start = text.index("Terraform will perform the following actions:")
        end = text.index("\n", text.index("\nPlan: ", start) + 1)
        (fixture / "terraform.txt").write_text(text[start : end + 1])
    providers = shown["configuration"].get("provider_config", {})
    configured = {k: p["expressions"] for k, p in providers.items() if p.get("expressions")}
    if fixture.parent.name == "merge" and configured:
        # Strata's JSON has no provider expressions: this records what the text form shows.
        (fixture / "terraform-providers.json").write_text(
            json.dumps(configured, indent=2, sort_keys=True) + "\n"
        )
    print(f"recorded {fixture.name}: {len(kept)} resources")


def main():
    mirror = mirror_dir()
    if mirror is None:
        sys.exit("no provider mirror: set TF_PLUGIN_MIRROR")
    dirs = [pathlib.Path(a).resolve() for a in sys.argv[1:]] or sorted(
        d for parent in FIXTURES for d in parent.iterdir() if (d / "provider-schemas").exists()
    )
    for d in dirs:
        record(d, mirror)


if __name__ == "__main__":
    main()
