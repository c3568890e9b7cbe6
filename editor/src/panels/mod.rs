//! Side panels, one struct per panel, all with one `ui` shape ([`Panel::ui`] with a
//! [`PanelCx`]), as egui's demo windows share `View::ui`. Panels read the document or the game
//! and push commands; they never edit the map or the game themselves: the app applies the
//! commands after the frame.

use crate::command::EditorCommand;
use crate::document::Document;
use crate::map_view::MapView;
use crate::play::{PlayCommand, PlaySession};
use kessel_core::hex::Hex;
use kessel_draw::MapStyle;

pub mod campaign;
mod choices;
pub mod game_file;
pub mod game_queries;
pub mod inspector;
pub mod lab;
pub mod log;
pub mod map_data;
pub mod palette;
pub mod play;
pub mod players;
pub mod profile_files;
pub mod region;
pub mod rules;
mod rules_compare;
pub mod rules_options;
pub mod scenario;
pub mod status;
pub mod unit_row;

pub use inspector::Inspector;
pub use log::LogPanel;
pub use map_data::MapDataPanel;
pub use palette::{Mode, Palette, Tool};
pub use play::PlayPanel;
pub use region::RegionTool;
pub use rules::RulesPanel;
pub use scenario::ScenarioPanel;
pub use status::StatusBar;

/// What a panel sees of the editor this frame, and where its commands go.
pub struct PanelCx<'a> {
    /// The open document.
    pub doc: &'a Document,
    /// How the ruleset says things look.
    pub style: &'a MapStyle,
    /// The hex the inspector shows.
    pub selected: Option<Hex>,
    /// The hex under the pointer.
    pub hovered: Option<Hex>,
    /// Sides and unit types the ruleset declares.
    pub names: &'a scenario::RulesetNames,
    /// The map canvas (layers, fit): view settings, not document state.
    pub view: &'a mut MapView,
    /// The play-test game, if one is running.
    pub session: Option<&'a mut PlaySession>,
    /// The campaign being played, if a campaign was opened.
    pub campaign: Option<&'a crate::play::campaign::CampaignRun>,
    /// Edits, applied after the frame.
    pub cmds: &'a mut Vec<EditorCommand>,
    /// Game and option changes, applied after the frame.
    pub play: &'a mut Vec<PlayCommand>,
}

/// A panel of the editor.
pub trait Panel {
    /// Draws the panel and pushes the commands its widgets produce.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut PanelCx<'_>);
}

/// Gives a widget an accessible name (text fields in grids have their label in another cell).
pub trait Named {
    /// Sets the name screen readers and `egui_kittest` queries see.
    fn named(self, name: &str) -> Self;
}

impl Named for egui::Response {
    fn named(self, name: &str) -> Self {
        self.ctx
            .accesskit_node_builder(self.id, |n| n.set_label(name));
        self
    }
}

/// A one-line text field `width` wide, in a grid cell too: a grid gives a cell only the width
/// its column had before (at first a narrow minimum), and a plain text field shrinks to that and
/// stays so, cutting a long name to its first few letters.
pub fn cell_text(ui: &mut egui::Ui, text: &mut String, width: f32) -> egui::Response {
    let height = ui.spacing().interact_size.y;
    ui.add_sized([width, height], egui::TextEdit::singleline(text))
}

/// Under a one-line path field, the whole path when the field cuts it (a game's save beside a
/// scenario opened by its full path showed `/work/…/examples/refit-rb/s`, its file name cut
/// off), wrapped in small type. Nothing while the field is being typed in (the field shows
/// where the cursor is).
pub fn whole_path_if_cut(ui: &mut egui::Ui, field: &egui::Response, path: &str) {
    let font = egui::TextStyle::Body.resolve(ui.style());
    let width = (ui.painter())
        .layout_no_wrap(path.to_string(), font, egui::Color32::WHITE)
        .size()
        .x;
    // the field's inner margin on both sides
    let room = field.rect.width() - 2.0 * ui.spacing().button_padding.x;
    if width > room && !field.has_focus() {
        ui.label(egui::RichText::new(path).small().weak())
            .on_hover_text("the whole path, which the field above cuts");
    }
}
