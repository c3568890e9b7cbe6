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
    // in the order of the `/` paths as strings (what a lookup by path compares), not of path
    // components: `refit-rb/` sorts before `refit/` as a string, after it by components
    let mut files: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).expect("under the root");
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            (rel.join("/"), f)
        })
        .collect();
    files.sort();
    let mut text = String::from("/// Bundled files: path (with `/`) and content, in path order.\n");
    text.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, f) in &files {
        text.push_str(&format!(
            "    ({:?}, include_bytes!({:?})),\n",
            rel,
            f.display().to_string()
        ));
    }
    text.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("bundled.rs");
    std::fs::write(out, text).expect("write bundled.rs");
}
