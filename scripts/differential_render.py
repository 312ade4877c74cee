"""Writes the versions `scripts/differential.py` generates as Terraform files: `main.tf`,
`override.tf`, `x_override.tf.json` and the local child module `modules/child/`.

A version is the generator's model (`differential.py` describes its parts); expressions in it
are small trees rendered here against the version they are written into, so that a
reference follows the resource it names when the second version renames it or repeats it
differently:

  ("lit", value)            a literal (None, bool, number, string, list, dict)
  ("var", name) / ("local", name)
  ("res", name, attr)       the resource's attribute, through its instances if repeated
  ("mod", name, output)     a module call's output, through its instances if repeated
  ("call", fn, [args])      a function call
  ("tmpl", [parts])         a template: strings and expressions
  ("op", form, [operands])  an expression around others: `form` with `{0}`, `{1}` for them
  ("data", output)          an output of the terraform_remote_state data source `peer`
  ("raw", text)             text used as written (each.key, count.index, ...)

A resource's repetition is None, ("count", n), ("for_each", keys or a map) or
("for_each_var", variable).
"""

import importlib
import json


def hcl_literal(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(hcl_literal(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {hcl_literal(v)}" for k, v in value.items()) + " }"


class Renderer:
    """Renders expressions against one version's resources and module calls."""

    def __init__(self, version):
        self.version = version

    def expr(self, e):
        kind = e[0]
        if kind == "lit":
            return hcl_literal(e[1])
        if kind == "var":
            return f"var.{e[1]}"
        if kind == "local":
            return f"local.{e[1]}"
        if kind == "raw":
            return e[1]
        if kind == "call":
            return f"{e[1]}(" + ", ".join(self.expr(a) for a in e[2]) + ")"
        if kind == "op":
            return e[1].format(*(self.expr(a) for a in e[2]))
        if kind == "data":
            return f"data.terraform_remote_state.peer.outputs.{e[1]}"
        if kind == "tmpl":
            return '"' + "".join(
                p if isinstance(p, str) else "${" + self.expr(p) + "}" for p in e[1]
            ) + '"'
        if kind == "res":
            resource = self.version["resources"].get(e[1])
            return self.repeated(f"terraform_data.{e[1]}", resource, e[2])
        if kind == "mod":
            return self.repeated(f"module.{e[1]}", self.version["modules"].get(e[1]), e[2])
        raise ValueError(kind)

    @staticmethod
    def repeated(address, obj, attr):
        repetition = obj["repetition"] if obj else None
        if repetition is None:
            return f"{address}.{attr}"
        if repetition[0] == "count":
            return f"{address}[*].{attr}"
        return f"{{ for k, o in {address} : k => o.{attr} }}"

    def json_expr(self, e):
        """The expression as a `.tf.json` value: literals as JSON, the rest a template."""
        if e[0] == "lit":
            return e[1]
        if e[0] == "tmpl":
            return self.expr(e)[1:-1]
        return "${" + self.expr(e) + "}"


def render_resource(r, name, res, override=None):
    lines = [f'resource "terraform_data" "{name}" {{']
    if override is None:
        repetition = res["repetition"]
        if repetition and repetition[0] == "count":
            lines.append(f"  count = {repetition[1]}")
        elif repetition and repetition[0] == "for_each_var":
            lines.append(f"  for_each = var.{repetition[1]}")
        elif repetition and isinstance(repetition[1], dict):
            lines.append(f"  for_each = {hcl_literal(repetition[1])}")
        elif repetition:
            lines.append(f"  for_each = toset({hcl_literal(repetition[1])})")
        body = res
    else:
        body = override
    for key in ("input", "triggers_replace"):
        if key in body:
            lines.append(f"  {key} = {r.expr(body[key])}")
    if override is None:
        if res["depends_on"]:
            depends_on = ", ".join(f"terraform_data.{d}" for d in res["depends_on"])
            lines.append(f"  depends_on = [{depends_on}]")
        life = res["lifecycle"]
        if life or res["conditions"]:
            lines.append("  lifecycle {")
            if "create_before_destroy" in life:
                flag = hcl_literal(life["create_before_destroy"])
                lines.append(f"    create_before_destroy = {flag}")
            if "prevent_destroy" in life:
                lines.append(f"    prevent_destroy = {hcl_literal(life['prevent_destroy'])}")
            if "ignore_changes" in life:
                ignored = life["ignore_changes"]
                listed = ignored if ignored == "all" else "[" + ", ".join(ignored) + "]"
                lines.append(f"    ignore_changes = {listed}")
            if "replace_triggered_by" in life:
                # An attribute only of a resource without repetition: of one with it,
                # the reference would need an instance key.
                targets = [
                    f"terraform_data.{t}"
                    + (f".{a}" if a and r.version["resources"][t]["repetition"] is None else "")
                    for t, a in life["replace_triggered_by"]
                ]
                lines.append("    replace_triggered_by = [" + ", ".join(targets) + "]")
            for kind, condition, message in res["conditions"]:
                lines += [
                    f"    {kind} {{",
                    f"      condition     = {r.expr(condition)}",
                    f"      error_message = {json.dumps(message)}",
                    "    }",
                ]
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines)


def render_variable(name, var):
    lines = [f'variable "{name}" {{', f"  type    = {var['type']}"]
    lines.append(f"  default = {hcl_literal(var['default'])}")
    if "nullable" in var:
        lines.append(f"  nullable = {hcl_literal(var['nullable'])}")
    if var.get("sensitive"):
        lines.append("  sensitive = true")
    if "validation" in var:
        lines += [
            "  validation {",
            f"    condition     = {var['validation'].format(name)}",
            f'    error_message = "The value of {name} is unsuitable."',
            "  }",
        ]
    lines.append("}")
    return "\n".join(lines)


def render_main(v):
    r = Renderer(v)
    parts = [render_variable(n, var) for n, var in v["variables"].items()]
    if v["locals"]:
        parts.append(
            "locals {\n" + "".join(f"  {n} = {r.expr(e)}\n" for n, e in v["locals"].items()) + "}"
        )
    if v["peer"]:
        parts.append(PEER_DATA)
    parts += [render_resource(r, n, res) for n, res in v["resources"].items()]
    for name, mod in v["modules"].items():
        lines = [f'module "{name}" {{', '  source = "./modules/child"']
        repetition = mod["repetition"]
        if repetition and repetition[0] == "count":
            lines.append(f"  count  = {repetition[1]}")
        elif repetition:
            lines.append(f"  for_each = toset({hcl_literal(repetition[1])})")
        lines += [f"  in = {r.expr(mod['in'])}", f"  n  = {mod['n']}", "}"]
        parts.append("\n".join(lines))
    for name, e in v["outputs"].items():
        sensitive = "  sensitive = true\n" if name in v["sensitive_outputs"] else ""
        condition = v["output_conditions"].get(name)
        if condition:
            _, check, message = condition
            sensitive += (
                f"  precondition {{\n    condition     = {r.expr(check)}\n"
                f"    error_message = {json.dumps(message)}\n  }}\n"
            )
        parts.append(f'output "{name}" {{\n  value = {r.expr(e)}\n{sensitive}}}')
    for name, (_, condition, message) in v["checks"].items():
        parts.append(
            f'check "{name}" {{\n  assert {{\n    condition     = {r.expr(condition)}\n'
            f"    error_message = {json.dumps(message)}\n  }}\n}}"
        )
    for source, target in v["moved"]:
        parts.append(f"moved {{\n  from = {source}\n  to   = {target}\n}}")
    for source, destroy in v["removed"]:
        lifecycle = f"  lifecycle {{\n    destroy = {hcl_literal(destroy)}\n  }}\n"
        parts.append(f"removed {{\n  from = {source}\n{lifecycle}}}")
    for target, id_ in v["imports"]:
        parts.append(f"import {{\n  to = {target}\n  id = {json.dumps(id_)}\n}}")
    return "\n\n".join(parts) + "\n"


def render_native_override(v):
    r = Renderer(v)
    parts = []
    for (kind, name), body in v["override_native"].items():
        if kind == "resource":
            parts.append(render_resource(r, name, None, override=body))
        elif kind == "local":
            parts.append(f"locals {{\n  {name} = {r.expr(body)}\n}}")
        else:
            parts.append(f'variable "{name}" {{\n  default = {hcl_literal(body["default"])}\n}}')
    return "\n\n".join(parts) + "\n" if parts else None


def render_json_override(v):
    r = Renderer(v)
    doc = {}
    for (kind, name), body in v["override_json"].items():
        if kind == "resource":
            doc.setdefault("resource", {}).setdefault("terraform_data", {})[name] = {
                k: r.json_expr(e) for k, e in body.items()
            }
        elif kind == "local":
            doc.setdefault("locals", {})[name] = r.json_expr(body)
        else:
            doc.setdefault("variable", {})[name] = {"default": body["default"]}
    return json.dumps(doc, indent=2) + "\n" if doc else None


PEER_DATA = """data "terraform_remote_state" "peer" {
  backend = "local"
  config = {
    path = "${path.module}/peer.tfstate"
  }
}"""


def peer_state(outputs):
    """The state file the data source `peer` reads: only outputs."""
    return json.dumps(
        {
            "version": 4,
            "terraform_version": "1.11.4",
            "serial": 1,
            "lineage": "differential-peer",
            "outputs": {
                name: {"value": value, "type": "string" if isinstance(value, str) else ["list", "string"]}
                for name, value in sorted(outputs.items())
            },
            "resources": [],
            "check_results": None,
        },
        indent=2,
    ) + "\n"


NESTED = """
module "g" {
  source = "./grand"
  count  = var.n > 0 ? 1 : 0
  in     = var.in
}

output "deep" {
  value = module.g[*].out
}
"""

GRANDCHILD = """variable "in" {
  type = any
}

resource "terraform_data" "g" {
  input = var.in
}

output "out" {
  value = terraform_data.g.output
}
"""

CHILD = """variable "in" {
  type = any
}

variable "n" {
  type = number
}

resource "terraform_data" "m" {
  count = var.n
  input = var.in
}

output "out" {
  value = terraform_data.m[*].output
}
"""


def write_version(v, target):
    target.mkdir(parents=True, exist_ok=True)
    (target / "main.tf").write_text(render_main(v))
    native = render_native_override(v)
    if native:
        (target / "override.tf").write_text(native)
    overriding = render_json_override(v)
    if overriding:
        (target / "x_override.tf.json").write_text(overriding)
    if v["modules"]:
        child = target / "modules" / "child"
        child.mkdir(parents=True, exist_ok=True)
        (child / "main.tf").write_text(CHILD + (NESTED if v["nested"] else ""))
        if v["nested"]:
            (child / "grand").mkdir(exist_ok=True)
            (child / "grand" / "main.tf").write_text(GRANDCHILD)
    if v["peer"]:
        (target / "peer.tfstate").write_text(peer_state(v["peer"]))
    if v["args"]:
        (target / "args").write_text("".join(f"{a}\n" for a in v["args"]))
    extras = importlib.import_module("differential_extras")
    text = extras.render(v.get("extras", []), bool(v["peer"]))
    if text:
        (target / "extras.tf").write_text(text)
    for name, content in extras.files(v.get("extras", [])).items():
        (target / name).write_text(content)
