#!/usr/bin/env python3
"""Records what `terraform validate` prints for a module in fixtures/check-text/: its
standard output and error together (as a terminal shows them), plain (`-no-color`) in
terraform-validate.txt and coloured in terraform-validate-color.txt. Terraform lays out
both at 78 columns here, its width when the output is not a terminal.

    python3 scripts/record-check-text.py fixtures/check-text/NAME
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    fixture = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "module")
        shutil.copytree(fixture, work, ignore=shutil.ignore_patterns("*.txt"))
        # An empty CLI configuration: no warning about a missing one in the output.
        config = os.path.join(tmp, "cli.tfrc")
        open(config, "w").close()
        env = dict(os.environ, TF_CLI_CONFIG_FILE=config, TF_IN_AUTOMATION="1")
        env.pop("NO_COLOR", None)
        # Init fails on an invalid configuration; validate still reports it.
        subprocess.run(["terraform", "init", "-backend=false"], cwd=work, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for name, flags in (("terraform-validate.txt", ["-no-color"]),
                            ("terraform-validate-color.txt", [])):
            out = subprocess.run(["terraform", "validate", *flags], cwd=work, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            with open(os.path.join(fixture, name), "wb") as f:
                f.write(out.stdout)


if __name__ == "__main__":
    main()
