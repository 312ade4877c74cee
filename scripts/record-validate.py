#!/usr/bin/env python3
"""Records what real Terraform says about each fixture of fixtures/validate/.

For every fixture folder (or the folders named on the command line) this copies the
module to a scratch directory, runs `terraform init -backend=false` offline (providers come
only from the filesystem mirror that ../shared/tools/tf-plugin-mirror prints, or
TF_PLUGIN_MIRROR), then `terraform validate -json`, and writes the result to the fixture's
`expected.json` with each diagnostic's `snippet` removed (Strata prints the rest of the
shape exactly). Fixtures written in the OpenTofu dialect (any `.tofu` file) cannot be
recorded here and are skipped with a message.

Usage: scripts/record-validate.py [FIXTURE_DIR ...]
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "validate"


def mirror_dir():
    """The filesystem mirror holding hashicorp/aws, or None."""
    if os.environ.get("TF_PLUGIN_MIRROR"):
        return os.environ["TF_PLUGIN_MIRROR"]
    tool = ROOT.parent / "shared" / "tools" / "tf-plugin-mirror"
    if not tool.exists():
        return None
    out = subprocess.run([str(tool)], capture_output=True, text=True)
    return out.stdout.strip() or None


def cli_config(scratch):
    """A CLI configuration that installs providers from the mirror only: no network."""
    path = pathlib.Path(scratch) / "terraformrc"
    mirror = mirror_dir()
    if mirror:
        path.write_text(
            "provider_installation {\n"
            f'  filesystem_mirror {{\n    path = "{mirror}"\n  }}\n'
            "}\n"
        )
    else:
        path.write_text("")
    return path


def is_tofu(fixture):
    return any(p.name.endswith((".tofu", ".tofu.json")) for p in fixture.rglob("*"))


def shown(path):
    """A fixture's path relative to the repository where it is inside it."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def record(fixture, rc):
    env = dict(os.environ)
    env.update(
        TF_CLI_CONFIG_FILE=str(rc),
        TF_IN_AUTOMATION="1",
        CHECKPOINT_DISABLE="1",
        TF_INPUT="0",
    )
    with tempfile.TemporaryDirectory() as work:
        module = pathlib.Path(work) / "module"
        shutil.copytree(
            fixture, module, ignore=shutil.ignore_patterns("expected.json", "README.md")
        )
        init = subprocess.run(
            ["terraform", "init", "-backend=false", "-input=false", "-no-color"],
            cwd=module,
            env=env,
            capture_output=True,
            text=True,
            # Terraform quotes a file's bytes in its messages, UTF-8 or not.
            errors="replace",
        )
        validate = subprocess.run(
            ["terraform", "validate", "-json", "-no-color"],
            cwd=module,
            env=env,
            capture_output=True,
            text=True,
            # Terraform quotes a file's bytes in its messages, UTF-8 or not.
            errors="replace",
        )
    try:
        result = json.loads(validate.stdout)
    except json.JSONDecodeError:
        sys.exit(
            f"{fixture}: validate printed no JSON\n{validate.stdout}{validate.stderr}"
        )
    for d in result.get("diagnostics", []):
        d.pop("snippet", None)
    (fixture / "expected.json").write_text(json.dumps(result, indent=2) + "\n")
    status = "init failed, " if init.returncode != 0 else ""
    print(
        f"{shown(fixture)}: {status}{result['error_count']} errors, "
        f"{result['warning_count']} warnings"
    )


def main():
    version = subprocess.run(
        ["terraform", "version"], capture_output=True, text=True
    ).stdout.splitlines()[0]
    if version != "Terraform v1.11.4":
        print(f"warning: recording with {version}, not Terraform v1.11.4", file=sys.stderr)
    dirs = [pathlib.Path(a).resolve() for a in sys.argv[1:]] or sorted(
        p for p in FIXTURES.iterdir() if p.is_dir()
    )
    with tempfile.TemporaryDirectory() as scratch:
        rc = cli_config(scratch)
        for fixture in dirs:
            if is_tofu(fixture):
                print(f"{shown(fixture)}: OpenTofu dialect, not recorded")
                continue
            record(fixture, rc)


if __name__ == "__main__":
    main()
