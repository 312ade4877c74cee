#!/usr/bin/env python3
"""Records what `terraform fmt` makes of each fixture of fixtures/fmt/.

Each fixture folder holds one input file, `input.<ext>` (`.tf`, `.tfvars`, `.tftest.hcl`,
...). This copies it to a scratch directory, runs `terraform fmt` on the copy (on a file,
not standard input: printing to standard output adds a line break at the end that the
formatting itself does not) and writes the result beside it as `expected.<ext>`. When Terraform refuses the
input (a syntax error), `expected.<ext>` is the input unchanged and a file `refused`
holds the first line of Terraform's error, so that tests/fmt.rs requires Strata to leave
the file alone too.

Usage: scripts/record-fmt.py [FIXTURE_DIR ...]
"""

import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "fmt"


def record(fixture, env):
    inputs = sorted(fixture.glob("input.*"))
    if len(inputs) != 1:
        print(f"{fixture.name}: expected exactly one input.* file, skipped", file=sys.stderr)
        return
    source = inputs[0]
    ext = source.name[len("input"):]
    data = source.read_bytes()
    with tempfile.TemporaryDirectory() as work:
        copy = pathlib.Path(work) / source.name
        copy.write_bytes(data)
        out = subprocess.run(
            ["terraform", "fmt", "-no-color", "-list=false", str(copy)],
            capture_output=True,
            env=env,
        )
        result = copy.read_bytes()
    expected = fixture / f"expected{ext}"
    refused = fixture / "refused"
    if out.returncode == 0:
        expected.write_bytes(result)
        refused.unlink(missing_ok=True)
        changed = "changed" if result != data else "unchanged"
        print(f"{fixture.name}: {changed}")
    else:
        errors = [
            line.strip("│ ").strip()
            for line in out.stderr.decode().splitlines()
            if "Error:" in line
        ]
        expected.write_bytes(data)
        refused.write_text((errors[0] if errors else "refused") + "\n")
        print(f"{fixture.name}: refused ({errors[0] if errors else '?'})")


def main():
    dirs = [pathlib.Path(a) for a in sys.argv[1:]] or sorted(
        p for p in FIXTURES.iterdir() if p.is_dir()
    )
    with tempfile.TemporaryDirectory() as scratch:
        rc = pathlib.Path(scratch) / "terraformrc"
        rc.write_text("")
        env = dict(os.environ, TF_CLI_CONFIG_FILE=str(rc), CHECKPOINT_DISABLE="1")
        for fixture in dirs:
            record(fixture.resolve(), env)


if __name__ == "__main__":
    main()
