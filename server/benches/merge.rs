//! Criterion benchmark: re-merging a 200-file module after a one-file edit, as the
//! language server does on the first request after each keystroke (the merged model is
//! cached per module revision, so later requests read it without merging).

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use strata::workspace::Workspace;

const PRIMARY_FILES: usize = 180;
const OVERRIDE_FILES: usize = 20;

/// A module of 200 files: each primary file declares variables, locals, resources and an
/// output; each override file overrides a few of them.
fn generate(dir: &PathBuf) {
    std::fs::create_dir_all(dir).unwrap();
    for f in 0..PRIMARY_FILES {
        let mut text = String::new();
        for i in 0..5 {
            text.push_str(&format!(
                "variable \"v{f}_{i}\" {{\n  type    = string\n  default = \"x\"\n}}\n\n\
                 resource \"aws_instance\" \"r{f}_{i}\" {{\n  ami           = var.v{f}_{i}\n  \
                 instance_type = \"t3.micro\"\n  tags = {{\n    Name = \"r{f}_{i}\"\n  }}\n  \
                 ebs_block_device {{\n    device_name = \"/dev/sda\"\n  }}\n  lifecycle {{\n    \
                 create_before_destroy = true\n  }}\n}}\n\n"
            ));
        }
        text.push_str(&format!(
            "locals {{\n  l{f} = \"{f}\"\n}}\n\noutput \"o{f}\" {{\n  value = local.l{f}\n}}\n"
        ));
        std::fs::write(dir.join(format!("file{f:03}.tf")), text).unwrap();
    }
    for f in 0..OVERRIDE_FILES {
        let target = f * 9;
        let text = format!(
            "resource \"aws_instance\" \"r{target}_0\" {{\n  instance_type = \"m5.large\"\n  \
             lifecycle {{\n    create_before_destroy = false\n  }}\n}}\n\n\
             variable \"v{target}_1\" {{\n  default = \"y\"\n}}\n"
        );
        std::fs::write(dir.join(format!("o{f:02}_override.tf")), text).unwrap();
    }
}

fn bench_remerge(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("strata-bench-merge-{}", std::process::id()));
    generate(&dir);
    let ws = Workspace::new();
    let module = ws.index_dir(&dir);
    let bytes: usize = module.source_bytes();
    let edited = dir.join("file090.tf");
    let original = std::fs::read_to_string(&edited).unwrap();
    ws.open_document(&edited, &original, 0);
    let mut version = 0;
    c.bench_function(
        &format!(
            "remerge 200-file module ({} KB) after a one-file edit",
            bytes / 1024
        ),
        |b| {
            b.iter(|| {
                version += 1;
                let text = format!("{original}\n# edit {version}\n");
                ws.open_document(&edited, &text, version);
                ws.merged(&dir).expect("merged")
            })
        },
    );
    c.bench_function("cached merged model lookup (no edit)", |b| {
        b.iter(|| ws.merged(&dir).expect("merged"))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench_remerge);
criterion_main!(benches);
