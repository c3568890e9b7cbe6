//! Embeds the bundled rulesets and scenarios (`scripts/`, `scenarios/`) in the `kessel` binary,
//! so an installed `kessel` finds them from any folder (see `src/bundle.rs`): writes a table of
//! `(path, include_bytes!(…))` in path order to `$OUT_DIR/bundled.rs`.

use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let hidden = p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if p.is_dir() {
            walk(&p, out);
        } else if p.is_file() {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for top in ["scripts", "scenarios"] {
        println!("cargo:rerun-if-changed={top}");
        walk(&root.join(top), &mut files);
    }
    files.sort();
    let mut text = String::from("/// Bundled files: path (with `/`) and content, in path order.\n");
    text.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for f in &files {
        let rel = f.strip_prefix(&root).expect("under the root");
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        text.push_str(&format!(
            "    ({:?}, include_bytes!({:?})),\n",
            rel.join("/"),
            f.display().to_string()
        ));
    }
    text.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("bundled.rs");
    std::fs::write(out, text).expect("write bundled.rs");
}
