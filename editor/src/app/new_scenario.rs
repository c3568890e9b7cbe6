//! Writing the region cut in the editor as a new scenario, through the core's
//! [`kessel_core::scaffold`] (the code of `kessel map cut` and `kessel new scenario`), and
//! opening it in place of the document.

use super::EditorApp;
use crate::document::Document;
use crate::panels::region::RegionRequest;
use kessel_core::scaffold::{cut_map, new_scenario, MapSource, NewScenario};
use kessel_core::script::display_path;
use std::path::PathBuf;

impl EditorApp {
    /// *File → New scenario…*: map editing with the region tool, and what to do next said in
    /// the status line.
    pub fn start_new_scenario(&mut self) {
        self.set_mode(crate::panels::Mode::Edit);
        self.palette.tool = crate::panels::palette::Tool::Region;
        self.status.info(
            "New scenario: drag a rectangle on the map from one corner hex to the opposite one; the panel on the right writes it (its terrain, rivers, roads and places are kept: paint over them)",
        );
    }

    /// Cuts the region out of the map as shown, writes the scenario folder, and opens it.
    pub fn new_scenario_from_region(&mut self, req: RegionRequest) {
        match self.write_region(&req) {
            Ok(path) => match Document::open(&path) {
                Ok(doc) => {
                    let not_yours = self.not_yours.take();
                    let note = format!(
                        "Wrote {} (scenario.toml, map.toml, special.lua, tests/special_test.lua) and opened it; kessel check passes",
                        display_path(&req.dir)
                    );
                    *self = EditorApp::new(doc);
                    self.set_not_yours(not_yours);
                    self.status.info(note);
                }
                Err(e) => self.status.error(format!(
                    "{} was written but does not open: {e:#}",
                    display_path(&path)
                )),
            },
            Err(e) => self.status.error(e),
        }
    }

    fn write_region(&self, req: &RegionRequest) -> Result<PathBuf, String> {
        let ruleset = self
            .doc
            .ruleset_dir
            .as_deref()
            .ok_or("open a scenario, not a bare map: the new scenario takes its ruleset")?;
        let source = display_path(&self.doc.map_path);
        let (a, b) = req.corners;
        let cut = cut_map(&self.doc.map, &source, a, b).map_err(|e| e.to_string())?;
        let spec = NewScenario {
            dir: &req.dir,
            map: MapSource::Text(&cut.text),
            ruleset,
            name: Some(&req.name),
            turns: req.turns,
            first_turn: None,
        };
        new_scenario(&spec).map_err(|e| {
            let lines: Vec<String> = e.located().iter().map(ToString::to_string).collect();
            format!("cannot write the new scenario: {}", lines.join("; "))
        })
    }
}
