//! The recorder: only inside a recording, every kind of change told, nested recordings.

use super::*;
use crate::workspace::tests::tempdir;

#[test]
fn records_only_inside_and_tells_a_changed_file() {
    let temp = tempdir::TempDir::new("reads");
    let dir = temp.path().to_path_buf();
    let file = temp.write("a.txt", "one");
    let missing = dir.join("b.txt");
    record(&file);
    let ((), reads) = record_reads(|| {
        record(&file);
        record(&missing);
        record(&dir);
    });
    assert_eq!(reads.len(), 3);
    assert!(reads.unchanged());
    std::fs::write(&file, "three").unwrap();
    assert!(!reads.unchanged());

    let ((), reads) = record_reads(|| record(&missing));
    std::fs::write(&missing, "").unwrap();
    assert!(!reads.unchanged(), "a file created where none was");
}

#[test]
fn an_outer_recording_keeps_what_an_inner_one_read() {
    let (inner, outer) = record_reads(|| {
        record(Path::new("/nonexistent/outer"));
        record_reads(|| record(Path::new("/nonexistent/inner"))).1
    });
    assert_eq!(inner.len(), 1);
    assert_eq!(outer.len(), 2);
    let ((), none) = record_reads(|| {});
    assert!(none.is_empty());
    record(Path::new("/nonexistent/after"));
    assert!(CURRENT.with(|c| c.borrow().is_none()));
}

#[test]
fn a_kept_recording_is_replayed_with_its_first_stamps() {
    let temp = tempdir::TempDir::new("reads-replay");
    let file = temp.write("a.txt", "one");
    let ((), kept) = record_reads(|| record(&file));
    std::fs::write(&file, "changed").unwrap();
    // A result kept from before the change, served inside another recording, makes that
    // recording stale too: the stamp replayed is the one the kept result read.
    let ((), outer) = record_reads(|| record_all(&kept));
    assert_eq!(outer.len(), 1);
    assert!(!outer.unchanged());
    record_all(&kept); // nothing records here: nothing happens
    assert!(CURRENT.with(|c| c.borrow().is_none()));
}
