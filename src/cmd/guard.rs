//! What a command's output may be written over: a new file, an empty one, or a file of the kind
//! the command writes, recognised by how it begins (a save's leading `"format": "kessel-save/…"`,
//! a lab data file's header line, a map file that parses with a `[map]` table, a picture or a
//! package Kessel made). Anything else is refused before any work is done:
//! `kessel script --save scenario.toml` would have replaced the scenario with a save,
//! `kessel render -o notes.png` someone's picture.
//!
//! Recognising by structure, not by a marker somewhere in the text: a campaign save holds game
//! saves, a note may quote `kessel-save/1`, a TOML file may mention `[map]` in a comment.

use kessel_core::fsio::{kessel_json_kind, KesselJson};
use std::io::Read as _;
use std::path::Path;

/// The kinds of file the commands write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// One game's save (`kessel script --save`).
    Save,
    /// A campaign's save (`kessel campaign --save`).
    CampaignSave,
    /// A balance lab data file (`kessel simulate --out`).
    LabData,
    /// A balance report (`kessel report -o`).
    Report,
    /// A map file (`kessel map cut -o`).
    Map,
    /// A map picture, SVG or PNG (`kessel render -o`).
    Picture,
    /// A `.kessel` package (`kessel pack -o`).
    Package,
    /// A profile of the scripts' time (`--lua-profile`).
    LuaProfile,
}

/// What `kessel render` writes into its pictures so that it recognises them again.
const PICTURE_MARK: &str = crate::render::MARK;

/// How much of a file's start is read to recognise it (a map file or a package is read whole).
const HEAD: u64 = 64 * 1024;
/// Larger files are not read to be recognised: no map file or package is this large.
const WHOLE_MAX: u64 = 256 * 1024 * 1024;

impl Output {
    /// A file name for the output, to suggest when a folder was named.
    fn example_name(self) -> &'static str {
        match self {
            Output::Save => "game.json",
            Output::CampaignSave => "campaign.json",
            Output::LabData => "games.jsonl",
            Output::Report => "report.html",
            Output::Map => "map.toml",
            Output::Picture => "map.png",
            Output::Package => "scenario.kessel",
            Output::LuaProfile => "lua-profile.txt",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Output::Save => "Kessel save",
            Output::CampaignSave => "campaign save",
            Output::LabData => "simulation data file",
            Output::Report => "balance report",
            Output::Map => "map file",
            Output::Picture => "picture drawn by kessel render",
            Output::Package => "Kessel package",
            Output::LuaProfile => "Lua profile",
        }
    }

    /// Is the file at `path` (`head`: its first bytes) one this kind of output may replace?
    fn recognises(self, path: &Path, head: &[u8]) -> bool {
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}').trim_start();
        match self {
            Output::Save => kessel_json_kind(text) == Some(KesselJson::Save),
            Output::CampaignSave => kessel_json_kind(text) == Some(KesselJson::CampaignSave),
            Output::LabData => kessel_json_kind(text) == Some(KesselJson::LabData),
            Output::Report => {
                text.get(..15)
                    .is_some_and(|d| d.eq_ignore_ascii_case("<!DOCTYPE html>"))
                    && text.contains("<title>Balance report")
            }
            Output::Map => read_whole(path).is_some_and(|bytes| {
                std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|t| t.trim_start_matches('\u{feff}').parse::<toml::Table>().ok())
                    .is_some_and(|t| {
                        t.get("map").is_some_and(toml::Value::is_table)
                            && !t.contains_key("scenario")
                    })
            }),
            Output::Picture => {
                let png = head.starts_with(b"\x89PNG\r\n\x1a\n")
                    && head
                        .windows(PICTURE_MARK.len())
                        .any(|w| w == PICTURE_MARK.as_bytes());
                let svg =
                    text.starts_with("<svg") && text.contains(&format!("<!-- {PICTURE_MARK} -->"));
                png || svg
            }
            Output::LuaProfile => text.starts_with("Lua profile:"),
            Output::Package => read_whole(path).is_some_and(|bytes| {
                zip::ZipArchive::new(std::io::Cursor::new(bytes))
                    .is_ok_and(|mut z| z.by_name(crate::package::MANIFEST).is_ok())
            }),
        }
    }
}

fn read_whole(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > WHOLE_MAX {
        return None;
    }
    std::fs::read(path).ok()
}

/// Refuses to write `kind` over an existing file that is not of that kind. An absent or empty
/// file may be written; a folder, or anything that is not a regular file, may not.
pub fn overwrite_only(out: &Path, kind: Output) -> anyhow::Result<()> {
    let what = kind.what();
    // said before any work is done (a script played, games simulated), not when writing; a
    // map cut starts a scenario's folder (`map cut … -o roslavl/map.toml`) and makes it
    let makes_folder = kind == Output::Map;
    if let Some(folder) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if folder.exists() && !folder.is_dir() {
            anyhow::bail!(
                "{}: {} is a file, not a folder; name a file in a folder",
                out.display(),
                folder.display()
            );
        }
        if !folder.is_dir() && !makes_folder {
            anyhow::bail!(
                "{}: the folder {} does not exist; create it first, or name a file in a folder that does",
                out.display(),
                folder.display()
            );
        }
    }
    // the file as the system will reach it once the folders are made: `new/../scenario.toml`
    // (for a map cut, which makes its folder) did not resolve while `new` was missing, so the
    // scenario it names was taken for a new file and written over
    let resolved = kessel_core::fsio::resolved(out);
    let out_shown = out;
    let out = resolved.as_path();
    let Ok(meta) = std::fs::metadata(out) else {
        return Ok(());
    };
    if meta.is_dir() {
        anyhow::bail!(
            "{}: a folder; name the {what} to write in it (such as {})",
            out_shown.display(),
            out_shown.join(kind.example_name()).display()
        );
    }
    if !meta.is_file() {
        anyhow::bail!(
            "{}: not a regular file (a device, a FIFO or a socket); name a file to write the {what} to",
            out_shown.display()
        );
    }
    if meta.len() == 0 {
        return Ok(());
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(out).and_then(|f| f.take(HEAD).read_to_end(&mut head));
    if read.is_err() || !kind.recognises(out, &head) {
        anyhow::bail!(
            "{}: the file exists and is not a {what}; not overwriting it (name a new file, or remove this one first)",
            out_shown.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str, content: &[u8]) -> std::path::PathBuf {
        let dir = kessel_test_support::scratch(&format!("guard-{name}"));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        let p = dir.join(name);
        std::fs::write(&p, content).expect("scratch file");
        p
    }

    #[test]
    fn each_output_replaces_its_own_kind_only() {
        let save = b"{\n  \"format\": \"kessel-save/1\",\n  \"scenario\": \"s.toml\"\n}";
        let campaign =
            b"{\"format\":\"kessel-campaign-save/1\",\"games\":[{\"format\":\"kessel-save/1\"}]}";
        let note = b"{\"note\": \"kessel-save/1\"}";
        let lab = b"{\"type\":\"header\",\"format\":\"kessel-lab/1\"}\n{\"type\":\"game\"}\n";
        let lab_mention = b"my notes on \"kessel-lab/1\" runs\n";
        let map = b"[map]\ncolumns = 4\nrows = 4\n";
        let map_comment = b"# not a [map]\ntitle = \"notes\"\n";
        let scenario = b"[scenario]\nname = \"x\"\n[map]\ncolumns = 1\n";
        let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><!-- kessel render --></svg>";
        let other_svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"3\"/></svg>";
        let report = b"<!DOCTYPE html>\n<html><head><title>Balance report: x</title>";
        for (name, content, kind, ok) in [
            ("save.json", &save[..], Output::Save, true),
            ("camp.json", &campaign[..], Output::Save, false),
            ("camp2.json", &campaign[..], Output::CampaignSave, true),
            ("save2.json", &save[..], Output::CampaignSave, false),
            ("note.json", &note[..], Output::Save, false),
            ("lab.jsonl", &lab[..], Output::LabData, true),
            ("notes.jsonl", &lab_mention[..], Output::LabData, false),
            ("map.toml", &map[..], Output::Map, true),
            ("comment.toml", &map_comment[..], Output::Map, false),
            ("scenario.toml", &scenario[..], Output::Map, false),
            ("mine.svg", &svg[..], Output::Picture, true),
            ("logo.svg", &other_svg[..], Output::Picture, false),
            ("not.png", b"not a png", Output::Picture, false),
            ("r.html", &report[..], Output::Report, true),
            ("notes.kessel", b"my notes", Output::Package, false),
            ("empty.kessel", b"", Output::Package, true),
        ] {
            let p = scratch(name, content);
            assert_eq!(overwrite_only(&p, kind).is_ok(), ok, "{name} as {kind:?}");
        }
    }

    /// A device or a FIFO is refused in words ("name the map file file to write" before).
    #[cfg(unix)]
    #[test]
    fn a_device_is_no_file_to_write() {
        for (kind, what) in [
            (Output::Map, "name a file to write the map file to"),
            (
                Output::LabData,
                "name a file to write the simulation data file to",
            ),
        ] {
            let e = overwrite_only(Path::new("/dev/null"), kind)
                .expect_err("a device")
                .to_string();
            assert!(
                e.contains("not a regular file (a device, a FIFO or a socket)")
                    && e.contains(what)
                    && !e.contains("file file"),
                "{e}"
            );
        }
    }
}
