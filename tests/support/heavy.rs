//! Modules whose expressions make functions handle many bytes (issue 12, item 3): each
//! ran for minutes or exhausted memory until the work of functions counted against the
//! evaluation budget by bytes and copies (`server/src/eval/budget.rs`), and each now ends
//! in the budget's diagnostic. Shared by the command line's tests and the server's.

/// A 1 MiB string, `local.big`, as a `locals` block.
const BIG: &str = "locals {
  k   = join(\"\", [for i in range(1024) : \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"])
  big = join(\"\", [for i in range(16) : local.k])
}
";

/// Each module: its folder name and its files (name, text).
pub fn modules() -> Vec<(&'static str, Vec<(&'static str, String)>)> {
    vec![
        // Each read of local.big copies a mebibyte: a million of them.
        (
            "reads",
            vec![(
                "main.tf",
                format!(
                    "{BIG}\noutput \"o\" {{\n  value = length([for a in range(1000) : [for b in range(1000) : local.big == \"\"]])\n}}\n"
                ),
            )],
        ),
        // 250,000 rows holding a copy of a 64 KiB string each: 16 GB.
        (
            "product",
            vec![(
                "main.tf",
                format!(
                    "{BIG}\noutput \"o\" {{\n  value = length(setproduct([local.k], range(500), range(500)))\n}}\n"
                ),
            )],
        ),
        // A million calls of a template file that loops a million times.
        (
            "template",
            vec![
                (
                    "main.tf",
                    "output \"o\" {\n  value = length([for a in range(1000) : [for b in range(1000) : templatefile(\"t.tpl\", { n = range(1000) })]])\n}\n".to_string(),
                ),
                (
                    "t.tpl",
                    "%{ for i in n }%{ for j in n }.%{ endfor }%{ endfor }".to_string(),
                ),
            ],
        ),
    ]
}
