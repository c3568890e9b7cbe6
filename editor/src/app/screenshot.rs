//! Headless screenshots (`kessel editor --screenshot`): after the first frames settle the app
//! asks the renderer for the window's pixels, writes them as PNG and closes the window.

use super::EditorApp;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Frames drawn before a requested screenshot, so fonts, layout and the map fit have settled.
const SCREENSHOT_AFTER_FRAMES: u32 = 10;
/// Frames after which a screenshot that never arrived counts as failed.
const SCREENSHOT_GIVE_UP_FRAMES: u32 = 600;

/// Where a screenshot run reports back to [`crate::run`].
pub type ScreenshotOutcome = Arc<Mutex<Option<Result<PathBuf, String>>>>;

pub(super) struct ScreenshotJob {
    path: PathBuf,
    pub(super) delay: Option<std::time::Instant>,
    frames: u32,
    requested: bool,
    outcome: ScreenshotOutcome,
}

impl EditorApp {
    /// Asks for a screenshot once the first frames have settled; the window closes after it.
    pub fn take_screenshot(&mut self, path: PathBuf, outcome: ScreenshotOutcome) {
        self.screenshot = Some(ScreenshotJob {
            path,
            delay: None,
            frames: 0,
            requested: false,
            outcome,
        });
    }

    pub(super) fn drive_screenshot(&mut self, ctx: &egui::Context) {
        let Some(job) = &mut self.screenshot else {
            return;
        };
        job.frames += 1;
        let done = job.outcome.lock().map(|o| o.is_some()).unwrap_or(true);
        if done {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        // a lab run started for the picture is waited for, unless a delay says when to shoot
        let lab_busy = (self.rules_panel.lab.run.as_ref()).is_some_and(|r| r.busy());
        let waiting = match job.delay {
            Some(t) => std::time::Instant::now() < t,
            // and so is the rules' work for the play-test game
            None => {
                lab_busy
                    || self.starting.is_some()
                    || self.reading.is_some()
                    || self.pending_select.is_some()
                    || self.pending_save.is_some()
                    || self.session.as_ref().is_some_and(|s| s.rules_busy())
            }
        };
        if waiting {
            job.frames = 0;
        }
        if !job.requested && job.frames >= SCREENSHOT_AFTER_FRAMES {
            job.requested = true;
            let path = job.path.clone();
            let outcome = job.outcome.clone();
            ctx.request_screenshot(move |img| {
                let result = save_png(&path, &img).map(|()| path.clone());
                if let Ok(mut slot) = outcome.lock() {
                    *slot = Some(result);
                }
            });
        }
        if job.frames > SCREENSHOT_GIVE_UP_FRAMES {
            if let Ok(mut slot) = job.outcome.lock() {
                *slot = Some(Err("no screenshot arrived from the renderer".into()));
            }
        }
        ctx.request_repaint();
    }
}

/// Leaves out what the pointer does. A screenshot has no one at the mouse, but the pointer of the
/// display it runs on (Xvfb's rests in the middle of its screen) still lies over the window: the
/// hex under it was outlined and a widget under it lit in every picture. `--hover` pins a hex of
/// its own and does not need the pointer.
pub(super) fn without_pointer(raw_input: &mut egui::RawInput) {
    raw_input.events.retain(|e| {
        !matches!(
            e,
            egui::Event::PointerMoved(_)
                | egui::Event::MouseMoved(_)
                | egui::Event::PointerButton { .. }
                | egui::Event::PointerGone
                | egui::Event::MouseWheel { .. }
                | egui::Event::Touch { .. }
        )
    });
}

fn save_png(path: &std::path::Path, img: &egui::ColorImage) -> Result<(), String> {
    let [w, h] = img.size;
    let rgba: Vec<u8> = img.pixels.iter().flat_map(|p| p.to_array()).collect();
    let mut png = std::io::Cursor::new(Vec::new());
    image::write_buffer_with_format(
        &mut png,
        &rgba,
        w as u32,
        h as u32,
        image::ColorType::Rgba8,
        image::ImageFormat::Png,
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    kessel_core::fsio::write_atomic(path, png.get_ref()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::without_pointer;

    #[test]
    fn a_screenshot_sees_no_pointer_but_keeps_other_input() {
        let mut input = egui::RawInput {
            events: vec![
                egui::Event::PointerMoved(egui::pos2(700.0, 450.0)),
                egui::Event::Key {
                    key: egui::Key::A,
                    physical_key: None,
                    pressed: true,
                    repeat: false,
                    modifiers: egui::Modifiers::NONE,
                },
                egui::Event::PointerButton {
                    pos: egui::pos2(700.0, 450.0),
                    button: egui::PointerButton::Primary,
                    pressed: true,
                    modifiers: egui::Modifiers::NONE,
                },
            ],
            ..Default::default()
        };
        without_pointer(&mut input);
        assert_eq!(input.events.len(), 1, "{:?}", input.events);
        assert!(matches!(input.events[0], egui::Event::Key { .. }));
        // and the context fed that input knows of no pointer
        let ctx = egui::Context::default();
        let mut out = ctx.run_ui(input, |_| {});
        out.textures_delta.clear();
        assert_eq!(ctx.input(|i| i.pointer.hover_pos()), None);
    }
}
