"""What `scripts/differential.py` and `differential_changes.py` share about a version's
model: walking the references of its expressions, and what a resource's repetition means.

Expressions are small trees (`differential_render.py` lists them); a reference names a
resource or module call by its name in the version, so a rename rewrites it here.
"""


def rewrite(e, f):
    """The expression with `f` applied to each reference in it (`f` returns its new node)."""
    if e[0] in ("res", "mod"):
        return f(e)
    if e[0] == "call":
        return ("call", e[1], [rewrite(a, f) for a in e[2]])
    if e[0] == "op":
        return ("op", e[1], [rewrite(a, f) for a in e[2]])
    if e[0] == "tmpl":
        return ("tmpl", [p if isinstance(p, str) else rewrite(p, f) for p in e[1]])
    return e


def rewrite_references(v, f):
    """Applies `f` to each reference of every expression of version `v`."""
    for res in v["resources"].values():
        for key in ("input", "triggers_replace"):
            if key in res:
                res[key] = rewrite(res[key], f)
    for table in ("locals", "outputs"):
        for key, e in v[table].items():
            v[table][key] = rewrite(e, f)
    for mod in v["modules"].values():
        mod["in"] = rewrite(mod["in"], f)
    for which in ("override_native", "override_json"):
        for key, body in v[which].items():
            if key[0] == "resource":
                v[which][key] = {k: rewrite(e, f) for k, e in body.items()}
            elif key[0] == "local":
                v[which][key] = rewrite(body, f)


def has_instances(res):
    """Whether a resource surely has at least one instance (one repeated over a variable
    may have none)."""
    repetition = res["repetition"]
    if repetition is None:
        return True
    return repetition[0] != "for_each_var" and bool(repetition[1])


def repetition_context(repetition):
    """Which of `count.index` and `each` a repeated body may use: "count", "for_each" or
    None."""
    if repetition is None:
        return None
    return "count" if repetition[0] == "count" else "for_each"


def raw_parts(e):
    """The texts used as written (`each.key`, `count.index`, ...) anywhere in `e`."""
    if e[0] == "raw":
        return [e[1]]
    if e[0] in ("call", "op"):
        return [r for a in e[2] for r in raw_parts(a)]
    if e[0] == "tmpl":
        return [r for p in e[1] if not isinstance(p, str) for r in raw_parts(p)]
    return []
