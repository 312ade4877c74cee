#!/usr/bin/env python3
"""Re-records every fixture of fixtures/validate-providers/ and its schema file.

Each fixture is a module using the AWS provider; `scripts/record-validate.py` records its
`expected.json` from `terraform validate -json` with the provider installed offline from
the filesystem mirror (../shared/tools/tf-plugin-mirror, or TF_PLUGIN_MIRROR). Then the
provider's full schema (`terraform providers schema -json` in a scratch module) is
trimmed by `scripts/trim-provider-schema.py` to the types the fixtures use, into
fixtures/validate-providers/schemas.json, which tests/validate.rs passes to
`strata check --provider-schemas`. The full schema is never committed.

Usage: scripts/record-validate-providers.py
"""

import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "validate-providers"
SCRIPTS = ROOT / "scripts"


def main():
    dirs = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
    subprocess.run(
        [sys.executable, SCRIPTS / "record-validate.py", *map(str, dirs)], check=True
    )
    sys.path.insert(0, str(SCRIPTS))
    record = __import__("importlib").import_module("record-validate")
    with tempfile.TemporaryDirectory() as scratch:
        rc = record.cli_config(scratch)
        module = pathlib.Path(scratch) / "module"
        module.mkdir()
        # Every fixture declares the same provider requirement.
        (module / "providers.tf").write_text((dirs[0] / "providers.tf").read_text())
        env = dict(os.environ, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")
        subprocess.run(
            ["terraform", "init", "-backend=false", "-input=false", "-no-color"],
            cwd=module, env=env, check=True, capture_output=True,
        )
        full = pathlib.Path(scratch) / "full.json"
        with full.open("w") as f:
            subprocess.run(
                ["terraform", "providers", "schema", "-json"],
                cwd=module, env=env, check=True, stdout=f,
            )
        out = FIXTURES / "schemas.json"
        subprocess.run(
            [sys.executable, SCRIPTS / "trim-provider-schema.py", full, out, *map(str, dirs)],
            check=True,
        )
    print(f"{out.relative_to(ROOT)}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
