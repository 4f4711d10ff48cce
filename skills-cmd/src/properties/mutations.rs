//! Mutated skill files go through the whole reader (decode, split, strict
//! YAML, validation, properties) without a panic: bad input only ever gives
//! problems. Bounded and seeded, so it is quick and repeatable.

use super::Properties;
use skills_build::unstable::frontmatter;
use skills_build::unstable::validate::validate;

use skills_test_support::rng::Rng;
use skills_test_support::testdata;

/// Every recorded skill file: the reference fixtures and the showcase skills.
fn seeds() -> Vec<Vec<u8>> {
    let root = testdata("");
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file()
                && path
                    .file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
                && let Ok(bytes) = std::fs::read(&path)
            {
                found.push(bytes);
            }
        }
    }
    found.sort();
    found
}

const INTERESTING: &[&[u8]] = &[
    b"---",
    b"\n",
    b"\r",
    b"\t",
    b":",
    b": ",
    b"- ",
    b"{",
    b"[",
    b"&a",
    b"*a",
    b"!!str",
    b"<<: ",
    b"|",
    b">-",
    b"'",
    b"\"",
    b"#",
    b"? ",
    b"...",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\x07",
    b"  ",
    b"\\",
    b"name",
    b"description",
    b"metadata",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    b"%YAML 1.2\n",
    b"---\n",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut bytes = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(5) {
            0 if !bytes.is_empty() => {
                let i = at.min(bytes.len() - 1);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => {
                let piece = INTERESTING[rng.below(INTERESTING.len())];
                bytes.splice(at..at, piece.iter().copied());
            }
            2 => {
                let end = (at + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => bytes.truncate(at),
            _ => {
                let end = (at + rng.below(16)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
        }
    }
    bytes
}

fn read_everything(bytes: &[u8]) {
    if let Ok(doc) = frontmatter::parse(bytes) {
        let problems = validate(&doc, "some-skill");
        for problem in &problems {
            assert!(!problem.message.is_empty());
        }
        let _ = Properties::read(&doc.frontmatter);
        let _ = doc.body();
    }
}

#[test]
fn mutated_skill_files_never_panic() {
    let seeds = seeds();
    assert!(
        seeds.len() > 100,
        "expected the recorded fixtures, found {}",
        seeds.len()
    );
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for _ in 0..6000 {
        let seed = &seeds[rng.below(seeds.len())];
        let mutated = mutate(&mut rng, seed);
        let result = std::panic::catch_unwind(|| read_everything(&mutated));
        assert!(
            result.is_ok(),
            "reading panicked on {:?}",
            String::from_utf8_lossy(&mutated)
        );
    }
}

#[test]
fn hostile_shapes_give_errors() {
    let deep = format!("---\n{}x: y\n---\n", "a:\n ".repeat(0)) + &"- ".repeat(5000);
    read_everything(deep.as_bytes());
    let nested: String = (0..3000)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    read_everything(format!("---\n{nested}---\n").as_bytes());
    let huge = format!(
        "---\nname: x\ndescription: {}\n---\n",
        "d".repeat(5_000_000)
    );
    let doc = frontmatter::parse(huge.as_bytes()).expect("a long value is still YAML");
    assert_eq!(validate(&doc, "x").len(), 1);
    read_everything(b"");
    read_everything(&[0u8; 4096]);
    read_everything(&[0xffu8; 64]);
}
